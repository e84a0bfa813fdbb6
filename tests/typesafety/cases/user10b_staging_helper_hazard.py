# RUN: raises UseAfterTransferError
# Planted bug: the feed loop completes the staging transfer but drops the handle wait() returns, so the next iteration refills the moved buffer.
"""Device feeder with a staging helper that takes ownership (``nx.Consumed``).

``stage`` uploads a pinned staging buffer and returns the transfer; the caller owns the
decision of when to wait. The feeder loop refills one staging buffer per batch,
stages it, overlaps a kernel launch with the copy, then takes the buffer back for the
next batch.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeAlias

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host: TypeAlias = nx.PinnedArray[nx.Owned, np.float32]
Dev: TypeAlias = nx.DeviceArray[nx.Owned, np.float32]
Batch: TypeAlias = NDArray[np.float32]


@cuda.jit
def accumulate(acc: Any, x: Any) -> None:
    i = cuda.grid(1)
    if i < x.size:
        acc[i] += x[i]


def stage(buf: nx.Consumed[Host], s: nx.Stream[nx.Lent], dev: Dev) -> nx.Transfer[Host]:
    """Upload ``buf`` into ``dev``; the returned transfer holds ``buf`` until waited."""
    return s.upload(buf, to=dev)


class DeviceFeeder:
    def __init__(self, width: int) -> None:
        self.width = width
        self.stream = nx.stream()
        self.acc = nx.device_array(width, np.float32)
        self.x = nx.device_array(width, np.float32)
        zeros = nx.pinned_copy(np.zeros(width, dtype=np.float32))
        self.staging: Host = self.stream.upload(zeros, to=self.acc).wait()
        self.fed = 0

    def feed(self, batches: Iterable[Batch]) -> None:
        buf = self.staging
        blocks = (self.width + 63) // 64
        with self.stream.lend() as ls:
            for batch in batches:
                with buf.write() as view:  # E: use-after-transfer
                    view[:] = batch
                t = stage(buf, ls, self.x)  # E: use-after-transfer
                ls.launch(accumulate, blocks, 64, self.acc, self.x)
                t.wait()
                self.fed += 1
        self.staging = buf

    def result(self) -> Batch:
        out = self.stream.download(self.acc, into=self.staging).wait()
        values: Batch = out.read().copy()
        self.staging = out
        return values

    def close(self) -> None:
        self.stream.close()


def main() -> None:
    width = 128
    feeder = DeviceFeeder(width)
    feeder.feed(np.full(width, float(k), dtype=np.float32) for k in range(5))
    acc = feeder.result()  # E: use-after-transfer
    feeder.close()
    assert feeder.fed == 5
    assert np.array_equal(acc, np.full(width, 10.0, dtype=np.float32)), acc[:4]
    print("staging_helper ok", float(acc.sum()))


if __name__ == "__main__":
    main()
