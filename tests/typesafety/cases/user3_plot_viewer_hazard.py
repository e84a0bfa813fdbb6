# RUN: raises BorrowError via-call
# A live plot viewer fed by a simulation: every frame the field is downloaded into the
# viewer's pinned buffer; render() draws from a read-only lend of it, and the viewer
# keeps only the numbers it derived (min, max, a coarse profile), never the view.
# The bug: update() keeps the lent view in an attribute so render() can compute the
# range lazily; the view expires at the end of update()'s lend block.
# (The runtime raises BorrowError in render(), called at line 56, not at the store.)
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def advance(field: Any, t: int) -> None:
    for i in range(cuda.grid(1), field.size, cuda.gridsize(1)):
        field[i] = (i * (t + 1)) % 17


class Viewer:
    def __init__(self, n: int) -> None:
        self.host: Host = nx.pinned_array(n, np.float32)
        self.profile: list[float] = []
        self.view: nx.PinnedArray[nx.Lent, np.float32] | None = None
        self.frames = 0

    def update(self, s: nx.Stream[nx.Owned], field: Dev) -> None:
        self.host = s.download(field, into=self.host).wait()
        with self.host.lend() as view:
            self.view = view  # E: lend-escape "\"view\""
            self.profile = [float(v) for v in view.read().reshape(4, -1).mean(axis=1)]
        self.frames += 1

    def render(self) -> str:
        assert self.view is not None
        values = self.view.read()
        lo, hi = float(values.min()), float(values.max())
        bars = " ".join(f"{p:5.2f}" for p in self.profile)
        return f"frame {self.frames}: [{lo:.0f}, {hi:.0f}] {bars}"


def main(steps: int = 3, n: int = 32) -> None:
    s = nx.stream()
    field = nx.device_array(n, np.float32)
    viewer = Viewer(n)
    for t in range(steps):
        s.launch(advance, 1, 32, field, t)
        viewer.update(s, field)
        print(viewer.render())  # E: lend-escape "in Viewer.update()"
    s.close()
    assert viewer.frames == steps


if __name__ == "__main__":
    main()
