# Streaming uploads through an nx.PinnedPool (the event-gated pool that replaces a
# hand-written free list): take() a staging buffer, fill it, upload, and recycle() the
# upload so the buffer is reused only once its copy has finished. The per-chunk
# checksum is computed from the source array, not from the staging buffer.
# The bug: the checksum is taken from the staging buffer after recycle(), as if
# recycling had completed the upload; the buffer is still moved.
# RUN: raises UseAfterTransferError
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx


@cuda.jit
def accumulate(src: Any, acc: Any) -> None:
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        acc[i] += src[i]


def stream_sum(signal: NDArray[np.float32], chunk: int) -> tuple[NDArray[np.float32], list[float]]:
    s = nx.stream()
    pool: nx.PinnedPool[np.float32] = nx.PinnedPool(2, chunk, np.float32)
    d_chunk = [nx.device_array(chunk, np.float32) for _ in range(2)]
    acc = nx.device_array(chunk, np.float32)
    s.upload_staged(np.zeros(chunk, np.float32), to=acc)
    checksums: list[float] = []
    for k, start in enumerate(range(0, signal.size, chunk)):
        piece = signal[start : start + chunk]
        buf = pool.take()  # blocks until a buffer's last copy has finished
        with buf.write() as a:
            a[:] = piece
        up = s.upload(buf, to=d_chunk[k % 2])
        s.launch(accumulate, 1, 32, d_chunk[k % 2], acc)
        pool.recycle(up)  # the buffer comes back to the pool with its transfer
        checksums.append(float(buf.read().sum()))  # E: use-after-transfer "\"buf\""
    pool.drain()
    out = s.download(acc, into=nx.pinned_array(chunk, np.float32)).wait()
    s.close()
    return out.read().copy(), checksums


def main(chunks: int = 5, chunk: int = 32) -> None:
    signal = np.arange(chunks * chunk, dtype=np.float32)
    total, checksums = stream_sum(signal, chunk)
    assert np.array_equal(total, signal.reshape(chunks, chunk).sum(axis=0))
    assert sum(checksums) == float(signal.sum())


if __name__ == "__main__":
    main()
