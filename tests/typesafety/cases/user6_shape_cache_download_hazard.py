# RUN: raises UseAfterTransferError
# Planted bug: fetch() stores the buffer back in the cache and returns a copy of its
# contents straight after download(), forgetting the wait (the developer believed that
# download() returning meant the copy had landed, as numba's synchronous copy_to_host does).
# The transfer is kept in a side list so it is waited at the end.
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


class OutputCache:
    """Pinned download buffers, one per shape, reused across calls."""

    def __init__(self, s: nx.Stream[nx.Lent]) -> None:
        self.s = s
        self.buffers: dict[tuple[int, ...], Host] = {}
        self.late: list[nx.Transfer[Host]] = []

    def fetch(self, dev: Dev) -> NDArray[np.float32]:
        key = dev.shape
        buf = self.buffers.pop(key, None)
        if buf is None:
            buf = nx.pinned_array(key, np.float32)
        down = self.s.download(dev, into=buf)
        self.late.append(down)
        result: NDArray[np.float32] = buf.read().copy()  # E: use-after-transfer
        self.buffers[key] = buf
        return result

    def settle(self) -> None:
        for t in self.late:
            h = t.wait()
            self.buffers[h.shape] = h
        self.late.clear()


def main() -> None:
    s = nx.stream()
    cache = OutputCache(s)
    for n in (32, 64, 32, 64):
        dev = nx.device_array(n, np.float32)
        s.upload_staged(np.ones(n, dtype=np.float32), to=dev).wait()
        s.launch(scale, 1, 64, dev, float(n))
        got = cache.fetch(dev)
        assert got.sum() == n * n, got.sum()
    cache.settle()
    s.close()


if __name__ == "__main__":
    main()
