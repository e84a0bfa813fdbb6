"""One big pinned array split across N streams, then a second pass into the same slices.

The raw numba idiom::

    big = cuda.pinned_array(n, np.float32)
    parts = np.split(big, N)                     # views into the one pinned buffer
    streams = [cuda.stream() for _ in range(N)]
    for part, s, d in zip(parts, streams, devs):  # first pass: slice i on stream i
        d.copy_to_device(part, stream=s)
        square[grid, block, s](d)
        d.copy_to_host(part, stream=s)
    for i, part in enumerate(parts):             # second pass, same slices
        d = devs[(i + 1) % N]                    # BUG: slice i on another stream, whose
        d.copy_to_device(part, stream=streams[(i + 1) % N])  # copy may run before pass 1's
        ...                                      # download of slice i has landed
    # or simply: parts[i] += 1 on the CPU before synchronizing stream i

The hazard: the slices are views of one buffer, but each is in flight on its own
stream. A second pass that touches slice ``i`` (on the CPU, or from another stream)
before stream ``i``'s download has landed reads the old values, and nothing orders it.

numbaxfer: there is no public API that splits one ``PinnedArray`` into owned slices
(see examples/README.md), so the split is done by ``nx.Pipeline``: ``Pipeline(chunk,
slots=N)`` owns N streams with their own device buffers and sends chunk ``i`` to
stream ``i % N``. ``pipe.map(src, into=dst, step=...)`` MOVES both whole arrays into
the run; no slice of them can be touched, by the CPU or by another pass, until
``run.wait()`` has seen every chunk home. The second pass reads the first pass's
output and writes back into the slices of the original array, on the same N streams.

    python examples/split_streams.py
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx


@cuda.jit
def square(src: Any, dst: Any) -> None:
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        dst[i] = src[i] * src[i]


@cuda.jit
def add_one(src: Any, dst: Any) -> None:
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        dst[i] = src[i] + 1.0


def grid_for(n: int) -> tuple[int, int]:
    """(blocks, threads) for the grid-stride kernels: 64 threads a block, >= 4 elements
    a thread (small grids keep numba's simulator, which runs threads in Python, fast)."""
    return max(1, min(1024, n // 256)), 64


def square_step(
    s: nx.Stream[nx.Lent],
    chunk_in: nx.DeviceArray[nx.Owned, np.float32],
    chunk_out: nx.DeviceArray[nx.Owned, np.float32],
) -> None:
    blocks, threads = grid_for(chunk_in.size)
    s.launch(square, blocks, threads, chunk_in, chunk_out)


def add_one_step(
    s: nx.Stream[nx.Lent],
    chunk_in: nx.DeviceArray[nx.Owned, np.float32],
    chunk_out: nx.DeviceArray[nx.Owned, np.float32],
) -> None:
    blocks, threads = grid_for(chunk_in.size)
    s.launch(add_one, blocks, threads, chunk_in, chunk_out)


def main(n: int = 512, streams: int = 4) -> NDArray[np.float32]:
    assert n % streams == 0, "n must split evenly across the streams"
    big = nx.pinned_copy(np.arange(n, dtype=np.float32))
    scratch = nx.pinned_array(n, np.float32)
    pipe = nx.Pipeline(n // streams, np.float32, slots=streams)  # slice i on stream i

    # First pass: scratch = big ** 2, slice by slice on N streams.
    run = pipe.map(big, into=scratch, step=square_step)  # both arrays move into the run
    big, scratch = run.wait()  # every slice is home: both come back
    # Second pass into the same slices of big: big = scratch + 1.
    run = pipe.map(scratch, into=big, step=add_one_step)
    scratch, big = run.wait()
    pipe.close()

    result: NDArray[np.float32] = big.read().copy()
    base = np.arange(n, dtype=np.float32)
    assert np.array_equal(result, base * base + 1.0), "split streams: wrong result"
    return result


if __name__ == "__main__":
    result = main()
    print(f"split_streams: right, {result.size} elements in 4 slices on 4 streams, two passes")
