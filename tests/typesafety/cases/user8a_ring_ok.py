# RUN: ok
"""A ring of download slots: each step's result lands in slot step % depth while the
next steps are computed; a slot is retired (waited, consumed) only when it comes round."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def fill_step(a: Any, step: float) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] = step * 10.0 + i


class DownloadRing:
    def __init__(self, depth: int, n: int) -> None:
        self.depth = depth
        self.stream = nx.stream()
        self.bufs: list[Host | None] = [nx.pinned_array(n, np.float32) for _ in range(depth)]
        self.pending: list[nx.Transfer[Host] | None] = [None] * depth
        self.steps: list[int] = [-1] * depth
        self.results: dict[int, float] = {}

    def _retire(self, k: int) -> None:
        t = self.pending[k]
        if t is None:
            return
        buf = t.wait()
        self.pending[k] = None
        self.results[self.steps[k]] = float(buf.read().max())
        self.bufs[k] = buf

    def submit(self, step: int, dev: Dev) -> None:
        k = step % self.depth
        self._retire(k)
        buf = self.bufs[k]
        assert buf is not None
        self.bufs[k] = None
        self.steps[k] = step
        self.pending[k] = self.stream.download(dev, into=buf)

    def flush(self) -> dict[int, float]:
        for k in range(self.depth):
            self._retire(k)
        return self.results


def main() -> None:
    n = 32
    dev = nx.device_array(n, np.float32)
    ring = DownloadRing(depth=3, n=n)
    for step in range(7):
        ring.stream.launch(fill_step, 1, n, dev, float(step))
        ring.submit(step, dev)
    results = ring.flush()
    for step, peak in sorted(results.items()):
        assert peak == step * 10.0 + n - 1, (step, peak)
    print("ring: retired", len(results), "steps")


if __name__ == "__main__":
    main()
