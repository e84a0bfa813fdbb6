"""A temporary pinned staging buffer inside a function.

The raw numba idiom::

    def send(a, dev, s):
        staging = cuda.pinned_array(a.shape, a.dtype)   # pinned: the copy can be async
        staging[:] = a
        dev.copy_to_device(staging, stream=s)          # async: the DMA reads staging later
        # return: the last reference to `staging` goes away with the copy still queued

    # the same with a caching pinned allocator (a free list of staging buffers, as
    # CuPy's PinnedMemoryPool keeps): the buffer goes back to the list at return
    def send(a, dev, s):
        staging = pool.get(a.nbytes)
        staging[:] = a
        dev.copy_to_device(staging, stream=s)
        pool.put(staging)                              # BUG: the copy has not read it

The hazard: nothing ties the staging buffer's lifetime to the copy that reads it. With
a caching allocator the next ``send`` gets the same buffer and refills it under the
first copy: the device receives the second array twice. With numba's own
``cuda.pinned_array`` the free is deferred (numba queues ``cuMemFreeHost`` and flushes
the queue at some later allocation), and freeing page-locked memory is one of the
driver calls that may synchronize: the program is right, but stalls at a moment
nobody chose. Either way the caller cannot tell when ``dev`` holds the data. A
``s.synchronize()`` before returning "fixes" it and throws the asynchrony away.

numbaxfer: the upload MOVES the staging buffer into the transfer, and the function
returns the transfer: the buffer lives as long as the copy needs it, and the caller
decides when to wait (here: after enqueuing a kernel, so the CPU and the GPU overlap).
``wait()`` gives the buffer back, to reuse or ``free()``. Forgetting the transfer is
reported twice: mypy with the plugin says ``[unfinished-transfer]``, and at run time
the dropped transfer issues a ``ResourceWarning`` and keeps the buffer alive
(``numbaxfer._lifetime.orphan_count()``) until the copy has really finished: never
freed or reused under the DMA. For a loop, allocate once and refill (examples/staging_loop.py):
pinning is slow.

    python examples/staging_function.py
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def affine(a: Any) -> None:
    """``a = 2 a + 1`` in place (grid-stride loop)."""
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = 2.0 * a[i] + 1.0


def grid_for(n: int) -> tuple[int, int]:
    """(blocks, threads) for the grid-stride kernels: 64 threads a block, >= 4 elements
    a thread (small grids keep numba's simulator, which runs threads in Python, fast)."""
    return max(1, min(1024, n // 256)), 64


def send(
    a: NDArray[np.float32], dev: nx.DeviceArray[nx.Owned, np.float32], s: nx.Stream[nx.Lent]
) -> nx.Transfer[Host]:
    """Start copying numpy array ``a`` to ``dev`` through a temporary staging buffer.

    The staging buffer leaves with the returned transfer: it cannot be freed, reused
    or written before the copy has read it.
    """
    staging = nx.pinned_copy(a)  # one host copy into fresh page-locked memory
    return s.upload(staging, to=dev)


def main(n: int = 256) -> NDArray[np.float32]:
    a = np.arange(n, dtype=np.float32)
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    blocks, threads = grid_for(n)

    up = send(a, dev, s)
    s.launch(affine, blocks, threads, dev)  # stream order: runs after the upload
    staging = up.wait()  # the copy has read the staging buffer: it is ours again
    out = s.download(dev, into=staging).wait()  # ...reused as the download's destination
    result: NDArray[np.float32] = out.read().copy()
    out.free()  # page-locked memory is scarce: release it now rather than at GC
    s.close()

    assert np.array_equal(result, 2.0 * a + 1.0), "staging in a function: wrong result"
    return result


if __name__ == "__main__":
    result = main()
    print(f"staging_function: right, {result.size} elements staged inside send()")
