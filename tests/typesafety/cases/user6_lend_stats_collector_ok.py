# RUN: ok
# A StatsCollector lends each completed output buffer for the duration of a `with lend()`
# block and records summary numbers (floats) computed from the lent view.
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


class StatsCollector:
    def __init__(self) -> None:
        self.means: list[float] = []
        self.maxima: list[float] = []

    def observe(self, buf: Host) -> None:
        with buf.lend() as view:
            values = view.read()
            self.means.append(float(values.mean()))
            self.maxima.append(float(values.max()))

    def report(self) -> tuple[float, float]:
        return max(self.maxima), sum(self.means) / len(self.means)


def main(n: int = 64) -> tuple[float, float]:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    out = nx.pinned_array(n, np.float32)
    stats = StatsCollector()
    s.upload_staged(np.arange(n, dtype=np.float32), to=dev).wait()
    for _ in range(3):
        s.launch(scale, 1, 64, dev, 2.0)
        out = s.download(dev, into=out).wait()
        stats.observe(out)
    top, mean = stats.report()
    s.close()
    assert top == 8.0 * (n - 1), top
    return top, mean


if __name__ == "__main__":
    main()
