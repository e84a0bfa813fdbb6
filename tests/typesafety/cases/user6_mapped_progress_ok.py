# RUN: ok
# A kernel scales a mapped (zero-copy) host array in place; the host maps it on a stream,
# launches through mapping.device, and takes it back with mapping.wait() before reading.
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


class MappedWorkspace:
    def __init__(self, n: int) -> None:
        self.host = nx.mapped_array(n, np.float32)
        with self.host.write() as a:
            a[:] = 1.0

    def run(self, s: nx.Stream[nx.Lent], factors: list[float]) -> float:
        mapping = s.map(self.host)
        for f in factors:
            s.launch(scale, 1, 64, mapping.device, f)
        print(f"queued {len(factors)} kernels")
        self.host = mapping.wait()
        return float(self.host.read()[0])


def main(n: int = 64) -> float:
    s = nx.stream()
    ws = MappedWorkspace(n)
    first = ws.run(s, [2.0, 3.0])
    second = ws.run(s, [0.5])
    s.close()
    assert (first, second) == (6.0, 3.0), (first, second)
    return second


if __name__ == "__main__":
    main()
