"""Mapped (zero-copy) host memory as a kernel's input and output.

The raw numba idioms::

    inp = cuda.mapped_array(n, np.float32)        # host memory the device can address
    out = cuda.mapped_array(n, np.float32)
    inp[:] = data
    affine[grid, block, a](inp, out)              # the kernel reads and writes host
    add_one[grid, block, b](out)                  #   memory over the bus, later
    total = out.sum()                             # BUG: the kernels may still be running
    a.synchronize(); total = out.sum()            # BUG: b's kernel may still be running

    with cuda.mapped(arr, stream=a) as d:         # map an existing array for the block
        affine[grid, block, a](d, d)
    use(arr)                                      # BUG: unmapped while the kernel is queued

The hazards: a kernel that uses mapped memory touches it while it runs, exactly like a
copy. Reading (or writing) the host side before every kernel that uses it has
finished, or after synchronizing only one of the streams involved, or letting
``cuda.mapped`` unmap at block exit while the kernel is queued, gives stale or torn
values, silently.

numbaxfer: ``stream.map(m)`` MOVES the mapped array into a ``Mapping``; kernels get
``mapping.device`` (on any stream: uses across streams are ordered on the device like
any device array's), and ``m = mapping.wait()`` waits for exactly the work that used
it (an event on each stream that did, nothing else) before giving the host array back.
Until then ``m.read()`` raises ``nx.UseAfterTransferError``. For progress counters a
running kernel updates, ``mapping.racy_peek()`` reads the live memory on purpose (and
says so). ``with nx.mapped(arr) as m:`` maps an existing numpy array in place (numba's
``cuda.mapped``, no copy): ``m`` is used the same way, and ending the block while a
mapping of it is not waited raises ``nx.UnfinishedTransferError`` (the memory stays
mapped until the kernels are done).

    python examples/mapped_zero_copy.py
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx


@nx.kernel(reads=["src"], writes=["dst"])
@cuda.jit
def affine(src: Any, dst: Any) -> None:
    """``dst = 2 src + 1`` (grid-stride loop)."""
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        dst[i] = 2.0 * src[i] + 1.0


@nx.kernel(writes=["a"])
@cuda.jit
def add_one(a: Any) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] += 1.0


def grid_for(n: int) -> tuple[int, int]:
    """(blocks, threads) for the grid-stride kernels: 64 threads a block, >= 4 elements
    a thread (small grids keep numba's simulator, which runs threads in Python, fast)."""
    return max(1, min(1024, n // 256)), 64


def in_place(arr: NDArray[np.float32], s: nx.Stream[nx.Lent]) -> None:
    """numba's ``with cuda.mapped(arr) as d:``: kernels update ``arr`` in place."""
    blocks, threads = grid_for(arr.size)
    with nx.mapped(arr) as m:  # pinned and mapped for the block, no copy
        mapping = s.map(m)
        affine[blocks, threads, s](mapping.device, mapping.device)
        m = mapping.wait()  # before the block ends: it refuses to end under the kernel


def main(n: int = 256) -> NDArray[np.float32]:
    a, b = nx.stream(), nx.stream()
    inp = nx.mapped_array(n, np.float32)
    out = nx.mapped_array(n, np.float32)
    with inp.write() as view:
        view[:] = np.arange(n, dtype=np.float32)
    blocks, threads = grid_for(n)

    mapped_in = a.map(inp)  # inp moves: the kernels read it in place
    mapped_out = a.map(out)  # out moves: reading it now would race the kernels
    affine[blocks, threads, a](mapped_in.device, mapped_out.device)
    add_one[blocks, threads, b](mapped_out.device)  # on b: waits for affine on the device
    out = mapped_out.wait()  # waits for the streams that used it (a and b), nothing else
    inp = mapped_in.wait()

    result: NDArray[np.float32] = out.read().copy()
    a.close()
    b.close()
    expected = 2.0 * inp.read() + 2.0
    assert np.array_equal(result, expected), "mapped zero-copy: wrong result"

    arr = np.arange(n, dtype=np.float32)
    s = nx.stream()
    in_place(arr, s)
    s.close()
    assert np.array_equal(arr, 2.0 * np.arange(n, dtype=np.float32) + 1.0), "nx.mapped: wrong"
    return result


if __name__ == "__main__":
    result = main()
    print(f"mapped_zero_copy: right, {result.size} elements read and written in place by kernels")
