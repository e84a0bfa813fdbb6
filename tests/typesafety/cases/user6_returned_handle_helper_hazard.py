# RUN: raises UseAfterTransferError
# Planted bug: the caller calls `roundtrip(buf, ...)` without rebinding `buf` to the return
# value, then reads `buf` (the developer thought the buffer was modified in place).
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


def roundtrip(buf: nx.Consumed[Host], s: nx.Stream[nx.Lent], dev: Dev, factor: float) -> Host:
    up = s.upload(buf, to=dev)
    s.launch(scale, 1, 64, dev, factor)
    return s.download(dev, into=up).wait()


def main(n: int = 64) -> list[float]:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    buf = nx.pinned_copy(np.ones(n, dtype=np.float32))
    seen: list[float] = []
    for factor in (2.0, 3.0, 4.0):
        roundtrip(buf, s, dev, factor)  # E: use-after-transfer "in an earlier loop iteration"
        seen.append(float(buf.read()[0]))  # E: use-after-transfer
    s.close()
    assert seen == [2.0, 6.0, 24.0], seen
    return seen


if __name__ == "__main__":
    main()
