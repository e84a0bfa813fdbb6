"""Two-stream ping-pong double buffering.

The raw numba idiom::

    streams = [cuda.stream(), cuda.stream()]
    host_in = [cuda.pinned_array(chunk, np.float32) for _ in range(2)]
    host_out = [cuda.pinned_array(chunk, np.float32) for _ in range(2)]
    for i, piece in enumerate(pieces):
        k = i % 2                               # ping, pong, ping, ...
        host_in[k][:] = piece                   # BUG: chunk i-2's upload may still read it
        d_in[k].copy_to_device(host_in[k], stream=streams[k])
        affine[grid, block, streams[k]](d_in[k], d_out[k])
        d_out[k].copy_to_host(host_out[k], stream=streams[k])
        results[i] = host_out[k]                # BUG: read before the download landed
                                                # (in practice: read two chunks later,
                                                #  after a synchronize that is easy to drop)

The hazards: refilling a staging buffer while the upload issued two chunks ago may
still read it (the device gets a mix of two chunks), and reading a download's
destination before it has landed. Both are silent.

numbaxfer: each half of the double buffer is a :class:`Slot` holding its stream, one
pinned buffer (the input, then the output: the download chains onto the upload with
``s.download(d_out, into=up)``, taking the buffer over with no host wait) and the
transfer in flight. A transfer owns the buffer it copies, so the only way to refill or
read a slot's buffer is to take it back first (``slot.finish()``, which waits on that
transfer's own event, never on the other slot's stream). While the CPU refills one
slot, the other slot's upload, kernel and download keep running.

    python examples/ping_pong.py
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def affine(src: Any, dst: Any) -> None:
    """``dst = 2 src + 1`` (grid-stride loop)."""
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        dst[i] = 2.0 * src[i] + 1.0


def grid_for(n: int) -> tuple[int, int]:
    """(blocks, threads) for the grid-stride kernels: 64 threads a block, >= 4 elements
    a thread (small grids keep numba's simulator, which runs threads in Python, fast)."""
    return max(1, min(1024, n // 256)), 64


class Slot:
    """One half of the double buffer: a stream, one pinned buffer, device buffers, and
    the transfer in flight (None when the buffer is home)."""

    def __init__(self, chunk: int) -> None:
        self.stream = nx.stream()
        self.host: Host = nx.pinned_array(chunk, np.float32)
        self.dev_in = nx.device_array(chunk, np.float32)
        self.dev_out = nx.device_array(chunk, np.float32)
        self.inflight: nx.Transfer[Host] | None = None
        self.index = -1  # which chunk the slot's buffer holds

    def start(self, piece: NDArray[np.float32], index: int) -> None:
        """Fill the buffer and enqueue upload, kernel and download."""
        with self.host.write() as a:  # refused while a transfer owns the buffer
            a[:] = piece
        up = self.stream.upload(self.host, to=self.dev_in)
        blocks, threads = grid_for(piece.size)
        self.stream.launch(affine, blocks, threads, self.dev_in, self.dev_out)
        self.inflight = self.stream.download(self.dev_out, into=up)  # same buffer, back
        self.index = index

    def finish(self, result: NDArray[np.float32]) -> None:
        """Take the buffer back (this slot's event only); store the output."""
        if self.inflight is not None:
            self.host = self.inflight.wait()
            self.inflight = None
            chunk = self.host.size
            result[self.index * chunk : (self.index + 1) * chunk] = self.host.read()

    def close(self) -> None:
        self.stream.close()


def main(chunks: int = 6, chunk: int = 128) -> NDArray[np.float32]:
    data = np.arange(chunks * chunk, dtype=np.float32)
    result = np.zeros_like(data)
    ping, pong = Slot(chunk), Slot(chunk)
    for i in range(chunks):
        slot = ping if i % 2 == 0 else pong
        slot.finish(result)  # chunk i-2's copies; chunk i-1 runs on on the other stream
        slot.start(data[i * chunk : (i + 1) * chunk], i)
    for slot in (ping, pong):
        slot.finish(result)
        slot.close()
    assert np.array_equal(result, 2.0 * data + 1.0), "ping-pong: wrong result"
    return result


if __name__ == "__main__":
    result = main()
    print(f"ping_pong: right, {result.size} elements through two streams")
