# RUN: raises UseAfterTransferError
# Planted bug: the buffer is given back to the pool before its values are summed (the
# developer reordered "free early" lines); the read after give() raises.
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


class ResultSink:
    def __init__(self, n: int) -> None:
        self.pool: nx.PinnedPool[np.float32] = nx.PinnedPool(2, n, np.float32)
        self.sums: list[float] = []

    def consume(self, s: nx.Stream[nx.Lent], dev: Dev) -> None:
        buf = self.pool.take()
        buf = s.download(dev, into=buf).wait()
        self.pool.give(buf)
        self.sums.append(float(buf.read().sum()))  # E: use-after-transfer


def main(n: int = 64) -> list[float]:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    s.upload_staged(np.ones(n, dtype=np.float32), to=dev).wait()
    sink = ResultSink(n)
    for _ in range(3):
        s.launch(scale, 1, 64, dev, 2.0)
        sink.consume(s, dev)
    sink.pool.drain()
    s.close()
    assert sink.sums == [2.0 * n, 4.0 * n, 8.0 * n], sink.sums
    return sink.sums


if __name__ == "__main__":
    main()
