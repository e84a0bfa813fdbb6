# RUN: raises UseAfterTransferError
# XFAIL: miss (line 42, silence by design): fill() writes self.slots[k] before its upload from two calls ago is waited, and never takes a slot back itself; a method that moves a fresh element at each call (a batch filled, then drained) has the same shape, so a repeated call of the moving method is reported only where it reads an element before its own take-back of that element (the ring rule)
# Planted bug: in fill(), the developer swaps first and then writes into the new back
# slot without waiting its transfer, assuming "two slots means the old one is done".
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


class DoubleBuffer:
    def __init__(self, n: int) -> None:
        self.s = nx.stream()
        self.slots: list[Host] = [nx.pinned_array(n, np.float32) for _ in range(2)]
        self.inflight: list[nx.Transfer[Host] | None] = [None, None]
        self.dev = nx.device_array(n, np.float32)
        self.acc = nx.device_array(n, np.float32)
        self.count = 0

    def _reclaim(self, k: int) -> None:
        t = self.inflight[k]
        if t is not None:
            self.slots[k] = t.wait()
            self.inflight[k] = None

    def fill(self, value: float) -> None:
        k = self.count % 2
        with self.slots[k].write() as a:  # E: use-after-transfer
            a[:] = value
        self.inflight[k] = self.s.upload(self.slots[k], to=self.dev)
        self.s.launch(scale, 1, 64, self.dev, 1.0)
        self.s.copy(self.dev, to=self.acc).wait()
        self.count += 1

    def finish(self) -> float:
        for k in range(2):
            self._reclaim(k)
        out = nx.pinned_array(self.acc.size, np.float32)
        out = self.s.download(self.acc, into=out).wait()
        self.s.close()
        return float(out.read()[0])


def main() -> float:
    db = DoubleBuffer(64)
    for v in (1.0, 2.0, 3.0, 4.0, 5.0):
        db.fill(v)
    last = db.finish()
    assert last == 5.0, last
    return last


if __name__ == "__main__":
    main()
