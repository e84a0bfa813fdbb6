# RUN: raises UseAfterTransferError
# Prefetcher as in the ok version. Planted bug: submit() records the batch's last value
# for a progress log by reading self.host right after the upload took it (the developer
# thought a read is harmless, only writes race).
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def scale(a: Any, factor: float) -> None:
    """``a *= factor`` (grid-stride loop)."""
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] *= factor


class Prefetcher:
    """Uploads the next batch while the device works on the previous one."""

    def __init__(self, n: int) -> None:
        self.stream = nx.stream()
        self.host: Host = nx.pinned_array(n, np.float32)
        self.devs: list[Dev] = [nx.device_array(n, np.float32) for _ in range(2)]
        self.pending: nx.Transfer[Host] | None = None
        self.turn = 0
        self.last = 0.0

    def collect(self) -> None:
        if self.pending is not None:
            self.host = self.pending.wait()
            self.pending = None

    def submit(self, batch: NDArray[np.float32]) -> Dev:
        self.collect()
        with self.host.write() as a:
            a[:] = batch
        dev = self.devs[self.turn]
        self.pending = self.stream.upload(self.host, to=dev)
        self.last = float(self.host.read()[-1])  # E: use-after-transfer
        self.turn ^= 1
        return dev

    def close(self) -> None:
        self.collect()
        self.stream.close()


def main(n: int = 64, steps: int = 4) -> list[float]:
    pf = Prefetcher(n)
    out = nx.pinned_array(n, np.float32)
    totals: list[float] = []
    for step in range(steps):
        dev = pf.submit(np.full(n, float(step), dtype=np.float32))
        pf.stream.launch(scale, 1, 64, dev, 2.0)
        out = pf.stream.download(dev, into=out).wait()
        totals.append(float(out.read().sum()))
        print(f"batch {step}: last input {pf.last}")
    pf.close()
    assert totals == [2.0 * k * n for k in range(steps)], totals
    return totals


if __name__ == "__main__":
    main()
