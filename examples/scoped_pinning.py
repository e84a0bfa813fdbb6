"""Scoped pinning around upload -> kernel -> download, with ``nx.pinned``.

The raw numba idiom::

    a = np.arange(n, dtype=np.float32)          # ordinary (pageable) numpy memory
    with cuda.pinned(a):                        # page-lock it for the block
        d = cuda.to_device(a, stream=s)         # async: the DMA reads `a` later
        affine[grid, block, s](d)
        d.copy_to_host(a, stream=s)             # async: the DMA writes `a` later
    use(a)                                      # BUG, twice over

The hazard: ``cuda.pinned`` unpins ``a`` when the block exits, whether or not the two
copies have run. The driver is then copying from and into memory that is no longer
page-locked (the OS may move or reuse those pages), and ``use(a)`` reads ``a`` before
the download has landed: stale numbers, or a corrupted upload if ``a`` is written
next. Nothing reports it. (The fix people remember, ``s.synchronize()`` before the
block ends, is easy to forget and blocks on the whole stream.)

numbaxfer: ``with nx.pinned(a) as h:`` page-locks ``a`` in place (no copy) and gives an
owned ``PinnedArray`` over it for the block. Transfers take ``h`` as they take any
pinned array, so ``h`` cannot be read or written while a copy owns it; the block is
finished with the handle the last transfer gives back. If the block ends while a
transfer still holds the memory, ``nx.UnfinishedTransferError`` names it, and the
memory stays pinned and alive until the copy has really finished (never unpinned
under the DMA). Inside the block use ``h``, not ``a``: a write through ``a`` is an
alias that neither checker sees (the known hole).

    python examples/scoped_pinning.py
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx


@cuda.jit
def affine(a: Any) -> None:
    """``a = 2 a + 1`` in place (grid-stride loop: any grid covers any size)."""
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = 2.0 * a[i] + 1.0


def grid_for(n: int) -> tuple[int, int]:
    """(blocks, threads) for the grid-stride kernels: 64 threads a block, >= 4 elements
    a thread (small grids keep numba's simulator, which runs threads in Python, fast)."""
    return max(1, min(1024, n // 256)), 64


def transform_in_place(a: NDArray[np.float32], s: nx.Stream[nx.Lent]) -> None:
    """Run ``affine`` over numpy array ``a`` on the GPU, writing the result back into ``a``."""
    dev = nx.device_array(a.shape, a.dtype)
    blocks, threads = grid_for(a.size)
    with nx.pinned(a) as h:  # a is page-locked in place; h owns it for the block
        up = s.upload(h, to=dev)  # h moves into the upload
        s.launch(affine, blocks, threads, dev)  # stream order: sees the uploaded data
        h = up.wait()  # the upload has read a; h is ours again (the kernel runs on)
        down = s.download(dev, into=h)  # h moves into the download
        h = down.wait()  # the result is in a; the block may end
    dev.free()


def main(n: int = 256) -> NDArray[np.float32]:
    a = np.arange(n, dtype=np.float32)
    s = nx.stream()
    transform_in_place(a, s)
    s.close()
    expected = 2.0 * np.arange(n, dtype=np.float32) + 1.0
    assert np.array_equal(a, expected), "scoped pinning: wrong result"
    return a


if __name__ == "__main__":
    result = main()
    print(f"scoped_pinning: right, {result.size} elements transformed in place")
