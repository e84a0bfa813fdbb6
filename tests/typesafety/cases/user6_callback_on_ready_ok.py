# RUN: ok
# A Downloader calls a user callback with each completed result buffer, then keeps the
# buffer for the next download; the callback copies out what it needs.
from __future__ import annotations

from collections.abc import Callable
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


Callback = Callable[[int, Host], None]


class Downloader:
    def __init__(self, s: nx.Stream[nx.Lent], n: int, on_ready: Callback) -> None:
        self.s = s
        self.buf = nx.pinned_array(n, np.float32)
        self.on_ready = on_ready

    def fetch(self, key: int, dev: Dev) -> None:
        down = self.s.download(dev, into=self.buf)
        self.buf = down.wait()
        self.on_ready(key, self.buf)


def main(n: int = 64) -> dict[int, float]:
    s = nx.stream()
    results: dict[int, float] = {}

    def record(key: int, buf: Host) -> None:
        results[key] = float(buf.read().sum())

    loader = Downloader(s, n, record)
    dev = nx.device_array(n, np.float32)
    s.upload_staged(np.ones(n, dtype=np.float32), to=dev).wait()
    for key in range(3):
        s.launch(scale, 1, 64, dev, 2.0)
        loader.fetch(key, dev)
    s.close()
    assert results == {0: 2.0 * n, 1: 4.0 * n, 2: 8.0 * n}, results
    return results


if __name__ == "__main__":
    main()
