# A chunked file-style reader over a PinnedPool: each chunk takes a free buffer, fills
# it, uploads it, and hands the upload back to the pool with recycle(); the pool gives
# the buffer out again once the copy is done. drain() at the end completes the rest.
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

CHUNK, CHUNKS = 16, 5


@cuda.jit
def accumulate(chunk: Any, acc: Any) -> None:
    i = cuda.grid(1)
    if i < chunk.size:
        acc[i] += chunk[i]


def read_chunk(index: int, out: Any) -> None:
    out[:] = float(index)


def main() -> None:
    s = nx.stream()
    pool = nx.PinnedPool(2, CHUNK, np.float32)
    dev_chunk = nx.device_array(CHUNK, np.float32)
    acc = nx.device_array(CHUNK, np.float32)
    zeros = nx.pinned_copy(np.zeros(CHUNK, np.float32))
    zeros = s.upload(zeros, to=acc).wait()
    for index in range(CHUNKS):
        buf = pool.take()
        with buf.write() as a:
            read_chunk(index, a)
        up = s.upload(buf, to=dev_chunk)
        s.launch(accumulate, 1, CHUNK, dev_chunk, acc)
        pool.recycle(up)
    pool.drain()
    total = s.download(acc, into=zeros).wait()
    assert float(total.read()[0]) == sum(range(CHUNKS))
    print("accumulated", CHUNKS, "chunks:", total.read()[0])
    s.close()


main()
