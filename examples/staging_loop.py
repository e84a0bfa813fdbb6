"""One pinned staging buffer refilled in a loop.

The raw numba idiom::

    staging = cuda.pinned_array(chunk, np.float32)  # allocated once: pinning is slow
    acc = cuda.to_device(np.zeros(chunk, np.float32), stream=s)
    for start in range(0, signal.size, chunk):
        piece = signal[start : start + chunk]      # the last piece may be shorter
        m = piece.size
        staging[:m] = piece                  # BUG: the previous upload may still read it
        d[:m].copy_to_device(staging[:m], stream=s)  # async
        accumulate[grid, block, s](d, acc, m)  # a length argument for the short piece
    total = acc.copy_to_host()

The hazard: the refill of iteration ``i+1`` races the upload of iteration ``i``: the
device may receive piece ``i+1`` twice and never see piece ``i``. It is the seed bug in
a loop, and the faster the CPU fills, the likelier it is.

numbaxfer: the upload MOVES ``staging``; the next ``staging.write()`` raises
``nx.UseAfterTransferError`` (and mypy with the plugin reports the line) until
``staging = up.wait()`` has taken it back. That wait blocks on the upload's own event
only: the kernel enqueued after the upload keeps running while the CPU fills the next
piece, so copy, kernel and refill still overlap. The short last piece goes through the
first rows of each array as owned parts (``nx.split(staging, bounds=[0, m, chunk])``,
no copy, no padding): the kernel sees arrays of ``m`` elements and needs no length
argument, and ``nx.join`` gives the whole arrays back. The zeros of the accumulator are
a small constant upload: ``s.upload_staged(np.zeros(...), to=acc)``, one host copy.

    python examples/staging_loop.py
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def accumulate(src: Any, acc: Any) -> None:
    """``acc += src`` (grid-stride loop)."""
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        acc[i] += src[i]


def grid_for(n: int) -> tuple[int, int]:
    """(blocks, threads) for the grid-stride kernels: 64 threads a block, >= 4 elements
    a thread (small grids keep numba's simulator, which runs threads in Python, fast)."""
    return max(1, min(1024, n // 256)), 64


def add_piece(
    s: nx.Stream[nx.Lent],
    piece: NDArray[np.float32],
    staging: nx.Consumed[Host],
    dev: Dev,
    acc: Dev,
) -> Host:
    """Refill ``staging``, upload it, enqueue ``acc += dev``; return ``staging``."""
    with staging.write() as a:  # refused while the last upload owns staging
        a[:] = piece
    up = s.upload(staging, to=dev)
    blocks, threads = grid_for(piece.size)
    s.launch(accumulate, blocks, threads, dev, acc)
    return up.wait()  # the copy has read it; the kernel runs on


def main(n: int = 5 * 128 - 28, chunk: int = 128) -> NDArray[np.float32]:
    s = nx.stream()
    k = np.arange(n, dtype=np.float32)
    signal = k % chunk + k // chunk + 1  # piece i is arange(chunk) + i + 1
    staging = nx.pinned_array(chunk, np.float32)
    dev, acc = nx.device_array(chunk, np.float32), nx.device_array(chunk, np.float32)
    s.upload_staged(np.zeros(chunk, np.float32), to=acc)  # small constant: one host copy

    for start in range(0, n, chunk):
        piece = signal[start : start + chunk]
        if piece.size == chunk:
            staging = add_piece(s, piece, staging, dev, acc)
        else:  # the short last piece: the first rows of each array, as owned parts
            rows = [0, piece.size, chunk]
            head, rest = nx.split(staging, bounds=rows)
            d_head, d_rest = nx.split(dev, bounds=rows)
            a_head, a_rest = nx.split(acc, bounds=rows)
            head = add_piece(s, piece, head, d_head, a_head)
            staging = nx.join([head, rest])
            dev, acc = nx.join([d_head, d_rest]), nx.join([a_head, a_rest])

    total = s.download(acc, into=staging).wait()
    s.close()
    result: NDArray[np.float32] = total.read().copy()
    expected = np.zeros(chunk, dtype=np.float32)
    for start in range(0, n, chunk):
        piece = signal[start : start + chunk]
        expected[: piece.size] += piece
    assert np.array_equal(result, expected), "staging loop: wrong result"
    return result


if __name__ == "__main__":
    result = main()
    print(f"staging_loop: right, pieces (the last one short) summed in one buffer: {result.sum()}")
