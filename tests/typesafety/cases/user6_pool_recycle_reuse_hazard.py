# RUN: raises UseAfterTransferError
# Planted bug: after recycling the upload, the loop reads the buffer it just gave away to
# log its first value (the pool owns it now, inside the transfer).
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


def feed(s: nx.Stream[nx.Lent], dev: Dev, pool: nx.PinnedPool[np.float32], values: list[float]) -> float:
    out = nx.pinned_array(dev.shape, np.float32)
    total = 0.0
    for v in values:
        buf = pool.take()
        with buf.write() as a:
            a[:] = v
        pool.recycle(s.upload(buf, to=dev))
        print(f"staged {buf.read()[0]}")  # E: use-after-transfer
        s.launch(scale, 1, 64, dev, 2.0)
        out = s.download(dev, into=out).wait()
        total += float(out.read()[0])
    return total


def main(n: int = 64) -> float:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    pool: nx.PinnedPool[np.float32] = nx.PinnedPool(2, n, np.float32)
    total = feed(s, dev, pool, [1.0, 2.0, 3.0, 4.0])
    pool.drain()
    s.close()
    assert total == 20.0, total
    return total


if __name__ == "__main__":
    main()
