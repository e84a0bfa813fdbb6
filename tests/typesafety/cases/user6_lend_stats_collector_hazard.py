# No RUN header: the runtime raises later, in report(), a line the checker does not flag; it reports the cause (the line marked below).
# Planted bug: the collector keeps the lent handle itself in a list ("to compute
# percentiles later") and reads it after the lend block has ended (the read raises
# later, in report(), not on the flagged line).
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
        self.views: list[nx.PinnedArray[nx.Lent, np.float32]] = []

    def observe(self, buf: Host) -> None:
        with buf.lend() as view:
            values = view.read()
            self.means.append(float(values.mean()))
            self.views.append(view)  # E: lend-escape

    def report(self) -> tuple[float, float]:
        self.maxima = [float(v.read().max()) for v in self.views]
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
