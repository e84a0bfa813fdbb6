# RUN: raises UseAfterTransferError
# Planted bug: the closure reads the buffer captured from the enclosing scope instead of
# the handle its wait() returned (the developer thought wait() revives the captured name).
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


def start_sum(s: nx.Stream[nx.Lent], dev: Dev) -> Callable[[], float]:
    out = nx.pinned_array(dev.shape, np.float32)
    down = s.download(dev, into=out)

    def finish() -> float:
        down.wait()
        return float(out.read().sum())  # E: use-after-transfer

    return finish


def main(n: int = 64) -> list[float]:
    s = nx.stream()
    finishers: list[Callable[[], float]] = []
    for k in range(3):
        dev = nx.device_array(n, np.float32)
        s.upload_staged(np.full(n, 1.0, dtype=np.float32), to=dev).wait()
        s.launch(scale, 1, 64, dev, float(k + 1))
        finishers.append(start_sum(s, dev))
    sums = [f() for f in finishers]
    s.close()
    assert sums == [float((k + 1) * n) for k in range(3)], sums
    return sums


if __name__ == "__main__":
    main()
