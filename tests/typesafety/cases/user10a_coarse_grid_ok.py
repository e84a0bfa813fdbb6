# RUN: ok
"""A two-level multigrid-style restriction: a fine grid is restricted onto a coarse grid
through an intent-declared kernel that reads a lent view of the fine level."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float64]


@nx.kernel(reads=["fine"], writes=["coarse"])
@cuda.jit
def restrict(fine: Any, coarse: Any) -> None:
    for i in range(cuda.grid(1), coarse.size, cuda.gridsize(1)):
        coarse[i] = 0.25 * fine[2 * i] + 0.5 * fine[2 * i + 1] + 0.25 * fine[2 * i + 2]


@dataclass
class Level:
    n: int
    dev: Dev


class TwoGrid:
    def __init__(self, n_coarse: int) -> None:
        self.s = nx.stream()
        self.fine = Level(2 * n_coarse + 1, nx.device_array(2 * n_coarse + 1, np.float64))
        self.coarse = Level(n_coarse, nx.device_array(n_coarse, np.float64))

    def load(self, values: np.ndarray[Any, np.dtype[np.float64]]) -> None:
        host = nx.pinned_copy(values)
        self.s.upload(host, to=self.fine.dev).wait().free()

    def restrict_once(self) -> np.ndarray[Any, np.dtype[np.float64]]:
        with self.fine.dev.lend() as view:
            restrict[1, 64, self.s](view, self.coarse.dev)
        out = nx.pinned_array(self.coarse.n, np.float64)
        out = self.s.download(self.coarse.dev, into=out).wait()
        result = out.read().copy()
        out.free()
        self.fine.dev.free()
        return result

    def close(self) -> None:
        self.s.close()


def main() -> None:
    grid = TwoGrid(127)
    x = np.linspace(0.0, 1.0, grid.fine.n)
    grid.load(x * x)
    coarse = grid.restrict_once()
    grid.close()
    xc = x[1::2]
    assert np.allclose(coarse, xc * xc + 0.5 * (x[1] - x[0]) ** 2, atol=1e-12)
    print(f"restricted {grid.fine.n} -> {coarse.size} points, max {coarse.max():.4f}")


if __name__ == "__main__":
    main()
