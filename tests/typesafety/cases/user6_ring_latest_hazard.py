# RUN: raises UseAfterTransferError via-call
# Reported at the call of latest() (line 63): the ring rule of docs/static-checker.md.
# Planted bug: latest() reads the newest ring entry without completing its download (the
# developer assumed the ring's depth makes the newest entry safe to read).
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


class Ring:
    def __init__(self, depth: int, n: int, s: nx.Stream[nx.Lent]) -> None:
        self.s = s
        self.bufs: list[Host] = [nx.pinned_array(n, np.float32) for _ in range(depth)]
        self.pending: list[nx.Transfer[Host] | None] = [None] * depth
        self.head = 0

    def _settle(self, k: int) -> None:
        t = self.pending[k]
        if t is not None:
            self.bufs[k] = t.wait()
            self.pending[k] = None

    def push(self, dev: Dev) -> None:
        k = self.head % len(self.bufs)
        self._settle(k)
        self.pending[k] = self.s.download(dev, into=self.bufs[k])
        self.head += 1

    def latest(self) -> float:
        k = (self.head - 1) % len(self.bufs)
        return float(self.bufs[k].read()[0])

    def close(self) -> None:
        for k in range(len(self.bufs)):
            self._settle(k)


def main(n: int = 64) -> list[float]:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    s.upload_staged(np.ones(n, dtype=np.float32), to=dev).wait()
    ring = Ring(3, n, s)
    seen: list[float] = []
    for step in range(5):
        s.launch(scale, 1, 64, dev, 2.0)
        ring.push(dev)
        if step % 2 == 1:
            seen.append(ring.latest())  # E: use-after-transfer
    ring.close()
    s.close()
    assert seen == [4.0, 16.0], seen
    return seen


if __name__ == "__main__":
    main()
