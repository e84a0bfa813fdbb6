"""A copy stream and a compute stream, linked by events.

The raw numba idiom (two device buffers reused round-robin, so copies of one chunk
overlap the kernel of another)::

    copy_s, compute_s = cuda.stream(), cuda.stream()
    for i, (src, dst) in enumerate(zip(host_in, host_out)):
        k = i % 2
        d_in[k].copy_to_device(src, stream=copy_s)
        uploaded[k].record(copy_s)
        uploaded[k].wait(compute_s)              # forget this: the kernel reads old data
        affine[grid, block, compute_s](d_in[k], d_out[k])
        computed[k].record(compute_s)
        computed[k].wait(copy_s)                 # forget this: the download is early
        d_out[k].copy_to_host(dst, stream=copy_s)
        # and the one everybody forgets: chunk i+2's upload into d_in[k] must wait for
        # chunk i's kernel to have READ d_in[k] (write-after-read across streams)
    copy_s.synchronize()

The hazards: every cross-stream dependency needs an event recorded after the right
operation and waited on by the right stream. Miss one, or record it one line too
early, and the kernel reads the previous chunk, or the download copies a buffer the
kernel has not written yet, or the next upload overwrites a buffer the kernel is still
reading. No error; the numbers are wrong only when the timing is unlucky.

numbaxfer: the events come from the data. Every device array remembers the stream of
its last write and the streams that read it since; an upload, kernel or download on
another stream first makes that stream wait for them on the device (an event wait,
never a host sync). Declaring the kernel's intents with ``nx.kernel(reads=...,
writes=...)`` makes reads precise, so the write-after-read case is ordered too. A
stream created with ``nx.stream(strict=True)`` refuses such cross-stream uses with
``nx.CrossStreamError`` instead, to find dependencies you did not mean to have. The
pinned buffers are owned by their transfers until ``wait()`` as everywhere else.

    python examples/copy_compute_events.py
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@nx.kernel(reads=["src"], writes=["dst"])
@cuda.jit
def affine(src: Any, dst: Any) -> None:
    """``dst = 2 src + 1`` (grid-stride loop)."""
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        dst[i] = 2.0 * src[i] + 1.0


def grid_for(n: int) -> tuple[int, int]:
    """(blocks, threads) for the grid-stride kernels: 64 threads a block, >= 4 elements
    a thread (small grids keep numba's simulator, which runs threads in Python, fast)."""
    return max(1, min(1024, n // 256)), 64


def main(chunks: int = 4, chunk: int = 128) -> NDArray[np.float32]:
    data = np.arange(chunks * chunk, dtype=np.float32)
    copy_s, compute_s = nx.stream(), nx.stream()
    d_in = [nx.device_array(chunk, np.float32) for _ in range(2)]
    d_out = [nx.device_array(chunk, np.float32) for _ in range(2)]
    blocks, threads = grid_for(chunk)

    uploads: list[nx.Transfer[Host]] = []
    downloads: list[nx.Transfer[Host]] = []
    for i in range(chunks):
        k = i % 2
        src = nx.pinned_copy(data[i * chunk : (i + 1) * chunk])
        # waits on the device for chunk i-2's kernel, which read d_in[k]
        uploads.append(copy_s.upload(src, to=d_in[k]))
        # waits on the device for the upload just enqueued on copy_s
        affine[blocks, threads, compute_s](d_in[k], d_out[k])
        # waits on the device for the kernel on compute_s
        downloads.append(copy_s.download(d_out[k], into=nx.pinned_array(chunk, np.float32)))

    for up in uploads:
        up.wait()  # the staging buffers come back; dropped here, freed by the GC
    result = np.concatenate([down.wait().read() for down in downloads])
    copy_s.close()
    compute_s.close()
    assert np.array_equal(result, 2.0 * data + 1.0), "copy/compute streams: wrong result"
    return result


if __name__ == "__main__":
    result = main()
    print(f"copy_compute_events: right, {result.size} elements, copies and kernels on two streams")
