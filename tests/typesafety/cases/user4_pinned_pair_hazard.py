# In-place GPU processing of two ordinary numpy arrays: both are pinned in place at
# once with nx.pinned(x, y), x goes up, a kernel writes y = 3 x on the device, y comes
# back, and both transfers are completed before the block unpins the memory. The bug:
# the download is completed after the block, which unpins y under the pending copy.
# RUN: raises UnfinishedTransferError
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

N = 32


@cuda.jit
def triple(src: Any, dst: Any) -> None:
    i = cuda.grid(1)
    if i < src.size:
        dst[i] = 3.0 * src[i]


def triple_into(s: nx.Stream[nx.Lent], x: NDArray[np.float32], y: NDArray[np.float32]) -> None:
    dx = nx.device_array(x.shape, np.float32)
    dy = nx.device_array(y.shape, np.float32)
    with nx.pinned(x, y) as (hx, hy):  # E: unfinished-transfer "down"
        up = s.upload(hx, to=dx)
        s.launch(triple, 1, N, dx, dy)
        down = s.download(dy, into=hy)
        hx = up.wait()
    hy = down.wait()
    dx.free()
    dy.free()


def main() -> None:
    s = nx.stream()
    x = np.arange(N, dtype=np.float32)
    y = np.zeros(N, np.float32)
    triple_into(s, x, y)
    assert np.array_equal(y, 3.0 * x)
    print("y[-1] =", y[-1])
    s.close()


main()
