# Backpressure with a bounded PinnedPool: results stream back into pooled buffers; when
# try_take() finds none free (all in flight), the oldest download is finished, consumed
# and its buffer given back, then the loop goes on. BUG: finish_oldest() gives the
# buffer back to the pool first ("free it as early as possible") and reads it after.
# RUN: raises UseAfterTransferError
from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N = 8


@cuda.jit
def fill(a: Any, v: float) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] = v


def main(items: int = 5) -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    pool: nx.PinnedPool[np.float32] = nx.PinnedPool(2, N, np.float32)
    inflight: deque[tuple[int, nx.Transfer[Host]]] = deque()
    results: dict[int, float] = {}

    def finish_oldest() -> None:
        k, down = inflight.popleft()
        out = down.wait()
        pool.give(out)
        results[k] = float(out.read().sum())  # E: use-after-transfer "out" "give()"

    for i in range(items):
        while (buf := pool.try_take()) is None:
            finish_oldest()
        s.launch(fill, 1, N, dev, float(i))
        inflight.append((i, s.download(dev, into=buf)))
    while inflight:
        finish_oldest()
    s.close()
    assert results == {i: 8.0 * i for i in range(items)}, results


main()
