# RUN: raises BorrowError via-call
# Planted bug: next_sum() logs the batch through a lend of self.host and stages the next batch inside that lend block; _stage() then writes and moves the lent buffer.
"""Double-buffered prefetcher: while the caller consumes batch i, batch i+1 uploads."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def square(a: Any) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] * a[i]


class Prefetcher:
    def __init__(self, source: NDArray[np.float32], batch: int) -> None:
        self.source = source
        self.batch = batch
        self.stream = nx.stream()
        self.host: Host = nx.pinned_array(batch, np.float32)
        self.dev: Dev = nx.device_array(batch, np.float32)
        self.pending: nx.Transfer[Host] | None = None
        self.cursor = 0
        self.log: list[float] = []

    def _stage(self) -> None:
        lo = self.cursor * self.batch
        with self.host.write() as a:
            a[:] = self.source[lo : lo + self.batch]
        self.pending = self.stream.upload(self.host, to=self.dev)
        self.cursor += 1

    def batches(self) -> int:
        return self.source.size // self.batch

    def next_sum(self, out: Host) -> tuple[float, Host]:
        if self.pending is None:
            self._stage()
        assert self.pending is not None
        self.host = self.pending.wait()
        self.pending = None
        self.stream.launch(square, 1, self.batch, self.dev)
        down = self.stream.download(self.dev, into=out)
        with self.host.lend() as staged:
            self.log.append(float(staged.read()[0]))
            if self.cursor < self.batches():
                self._stage()  # E: owner-borrowed
        out = down.wait()
        return float(out.read().sum()), out

    def close(self) -> None:
        if self.pending is not None:
            self.host = self.pending.wait()
            self.pending = None
        self.stream.close()


def main() -> None:
    data = (np.arange(256, dtype=np.float32) / 16).astype(np.float32)
    pf = Prefetcher(data, 64)
    out: Host = nx.pinned_array(64, np.float32)
    total = 0.0
    for _ in range(pf.batches()):
        s, out = pf.next_sum(out)
        total += s
    pf.close()
    assert abs(total - float((data * data).sum())) < 1e-2, total
    assert pf.log == [float(data[k * 64]) for k in range(4)], pf.log
    print("prefetcher: total", total)


if __name__ == "__main__":
    main()
