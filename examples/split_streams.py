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

numbaxfer: ``parts = nx.split(big, N)`` MOVES ``big`` into N owned parts (views, no
copy; ``n`` need not divide evenly: the last part is shorter), and the device arrays
are split the same way. Each part moves into its own upload on its own stream; the
download chains onto that upload (``s.download(d_out, into=up)`` takes the part over
with no host wait) and gives the part back at ``wait()``, which blocks on that part's
event only. Until then the part cannot be written, read or uploaded again, on any
stream; the second pass sends part ``i`` on stream ``i + 1`` as soon as part ``i`` is
home, and numbaxfer orders its device parts after stream ``i``'s work by an event wait
on the device. ``big = nx.join(parts)`` takes every part back (each must be home).

    python examples/split_streams.py
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


def send(
    kernel: Any, part: nx.Consumed[Host], d_in: Dev, d_out: Dev, s: nx.Stream[nx.Lent]
) -> nx.Transfer[Host]:
    """Upload ``part``, run ``kernel`` on ``s``, download the result into the same part.
    The part moves in; the returned transfer's ``wait()`` gives it back."""
    up = s.upload(part, to=d_in)
    blocks, threads = grid_for(d_in.size)
    s.launch(kernel, blocks, threads, d_in, d_out)
    return s.download(d_out, into=up)  # chained: takes the part over, no host wait


def main(n: int = 512, count: int = 4) -> NDArray[np.float32]:
    streams = [nx.stream() for _ in range(count)]
    big = nx.pinned_copy(np.arange(n, dtype=np.float32))
    dev_in, dev_out = nx.device_array(n, np.float32), nx.device_array(n, np.float32)
    parts = nx.split(big, count)  # big moves into the split: its parts are owned
    ins, outs = nx.split(dev_in, count), nx.split(dev_out, count)

    # First pass, part i on stream i: part = part ** 2.
    first = [send(square, p, ins[i], outs[i], streams[i]) for i, p in enumerate(parts)]
    # Second pass, part i on stream i + 1, as soon as part i is home: part = part + 1.
    second = []
    for i, down in enumerate(first):
        part = down.wait()  # part i's own event; the other parts' copies run on
        second.append(send(add_one, part, ins[i], outs[i], streams[(i + 1) % count]))
    big = nx.join([down.wait() for down in second])  # every part home: big is whole
    dev_in, dev_out = nx.join(ins), nx.join(outs)
    for s in streams:
        s.close()

    result: NDArray[np.float32] = big.read().copy()
    base = np.arange(n, dtype=np.float32)
    assert np.array_equal(result, base * base + 1.0), "split streams: wrong result"
    return result


if __name__ == "__main__":
    result = main()
    print(f"split_streams: right, {result.size} elements in 4 parts on 4 streams, two passes")
