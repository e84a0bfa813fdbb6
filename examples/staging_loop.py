"""One pinned staging buffer refilled in a loop.

The raw numba idiom::

    staging = cuda.pinned_array(chunk, np.float32)  # allocated once: pinning is slow
    for piece in pieces:
        staging[:] = piece                   # BUG: the previous upload may still read it
        d.copy_to_device(staging, stream=s)  # async
        accumulate[grid, block, s](d, acc)
    total = acc.copy_to_host()

The hazard: the refill of iteration ``i+1`` races the upload of iteration ``i``: the
device may receive piece ``i+1`` twice and never see piece ``i``. It is the seed bug in
a loop, and the faster the CPU fills, the likelier it is.

numbaxfer: the upload MOVES ``staging``; the next ``staging.write()`` raises
``nx.UseAfterTransferError`` (and mypy with the plugin reports the line) until
``staging = up.wait()`` has taken it back. That wait blocks on the upload's own event
only: the kernel enqueued after the upload keeps running while the CPU fills the next
piece, so copy, kernel and refill still overlap.

    python examples/staging_loop.py
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx


@cuda.jit
def accumulate(src: Any, acc: Any) -> None:
    """``acc += src`` (grid-stride loop)."""
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        acc[i] += src[i]


def grid_for(n: int) -> tuple[int, int]:
    """(blocks, threads) for the grid-stride kernels: 64 threads a block, >= 4 elements
    a thread (small grids keep numba's simulator, which runs threads in Python, fast)."""
    return max(1, min(1024, n // 256)), 64


def main(pieces: int = 5, chunk: int = 128) -> NDArray[np.float32]:
    s = nx.stream()
    dev = nx.device_array(chunk, np.float32)
    staging = nx.pinned_array(chunk, np.float32)
    # The accumulator starts at zero: upload zeros through the staging buffer.
    with staging.write() as a:
        a[:] = 0.0
    acc = nx.device_array(chunk, np.float32)
    staging = s.upload(staging, to=acc).wait()
    blocks, threads = grid_for(chunk)

    expected = np.zeros(chunk, dtype=np.float32)
    for i in range(pieces):
        piece = np.full(chunk, float(i + 1), dtype=np.float32) + np.arange(chunk, dtype=np.float32)
        expected += piece
        with staging.write() as a:  # refused while the last upload owns staging
            a[:] = piece
        up = s.upload(staging, to=dev)
        s.launch(accumulate, blocks, threads, dev, acc)
        staging = up.wait()  # the copy has read it; the kernel runs on

    total = s.download(acc, into=staging).wait()
    s.close()
    result: NDArray[np.float32] = total.read().copy()
    assert np.array_equal(result, expected), "staging loop: wrong result"
    return result


if __name__ == "__main__":
    result = main()
    print(f"staging_loop: right, pieces summed through one staging buffer: {result.sum()}")
