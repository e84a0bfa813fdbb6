# An iterative reduction: every iteration a kernel writes per-block partial sums, they
# are downloaded into one of two pinned buffers, and the host accumulates the previous
# iteration's partials while the current download runs (one download in flight).
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]

BLOCKS = 4


@cuda.jit
def partial_sums(data: Any, parts: Any, it: int) -> None:
    b = cuda.blockIdx.x
    if cuda.threadIdx.x == 0:
        acc = 0.0
        for i in range(b, data.size, BLOCKS):
            acc += data[i] * (it + 1)
        parts[b] = acc


def reduce_all(iters: int = 5, n: int = 64) -> float:
    s = nx.stream()
    values = np.arange(n, dtype=np.float32)
    d_data = nx.device_array(n, np.float32)
    s.upload_staged(values, to=d_data)
    d_parts = nx.device_array(BLOCKS, np.float32)
    bufs = [nx.pinned_array(BLOCKS, np.float32) for _ in range(2)]
    total = 0.0
    prev: tuple[int, nx.Transfer[Host]] | None = None

    for it in range(iters):
        k = it % 2
        s.launch(partial_sums, BLOCKS, 1, d_data, d_parts, it)
        down = s.download(d_parts, into=bufs[k])
        if prev is not None:
            j, t = prev
            bufs[j] = t.wait()
            total += float(bufs[j].read().sum())
        prev = (k, down)

    if prev is not None:
        j, t = prev
        bufs[j] = t.wait()
        total += float(bufs[j].read().sum())
    s.close()
    expected = float(values.sum()) * sum(range(1, iters + 1))
    assert total == expected, (total, expected)
    return total


if __name__ == "__main__":
    print(reduce_all())
