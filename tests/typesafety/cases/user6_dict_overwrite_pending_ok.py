# RUN: ok
# A per-layer dict of pending downloads: each refresh() first completes the layer's
# previous download (if any) before starting a new one into the same buffer slot.
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


class LayerMirror:
    def __init__(self, s: nx.Stream[nx.Lent]) -> None:
        self.s = s
        self.pending: dict[str, nx.Transfer[Host]] = {}
        self.latest: dict[str, float] = {}

    def refresh(self, name: str, dev: Dev) -> None:
        old = self.pending.pop(name, None)
        buf = old.wait() if old is not None else nx.pinned_array(dev.shape, np.float32)
        self.latest[name] = float(buf.read()[0]) if old is not None else 0.0
        self.pending[name] = self.s.download(dev, into=buf)

    def settle(self) -> dict[str, float]:
        for name, t in self.pending.items():
            self.latest[name] = float(t.wait().read()[0])
        self.pending.clear()
        return self.latest


def main(n: int = 64) -> dict[str, float]:
    s = nx.stream()
    layers = {"a": nx.device_array(n, np.float32), "b": nx.device_array(n, np.float32)}
    for dev in layers.values():
        s.upload_staged(np.ones(n, dtype=np.float32), to=dev).wait()
    mirror = LayerMirror(s)
    for _ in range(3):
        for name, dev in layers.items():
            s.launch(scale, 1, 64, dev, 2.0)
            mirror.refresh(name, dev)
    latest = mirror.settle()
    s.close()
    assert latest == {"a": 8.0, "b": 8.0}, latest
    return latest


if __name__ == "__main__":
    main()
