# Downloads collected in priority order: results of several kernels are downloaded into
# their own pinned buffers, and the (priority, sequence, transfer) entries go on a heap;
# the collector pops the most urgent first, and, once its time budget is spent, drains
# the rest without consuming them (every transfer is completed either way).
# RUN: ok
from __future__ import annotations

import heapq
import time
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def fill(a: Any, v: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = v


def collect(jobs: list[tuple[int, float]], budget_s: float) -> tuple[list[float], int]:
    s = nx.stream()
    heap: list[tuple[int, int, nx.Transfer[Host]]] = []
    for seq, (prio, value) in enumerate(jobs):
        dev = nx.device_array(16, np.float32)
        s.launch(fill, 1, 16, dev, value)
        heapq.heappush(heap, (prio, seq, s.download(dev, into=nx.pinned_array(16, np.float32))))
    deadline = time.monotonic() + budget_s
    got: list[float] = []
    skipped = 0
    while heap:
        _, _, t = heapq.heappop(heap)
        buf = t.wait()
        if time.monotonic() > deadline:
            skipped += 1  # over budget: completed, not consumed
            continue
        got.append(float(buf.read()[0]))
    s.close()
    return got, skipped


if __name__ == "__main__":
    got, skipped = collect([(2, 20.0), (0, 0.5), (1, 10.0)], budget_s=60.0)
    assert got == [0.5, 10.0, 20.0] and skipped == 0, (got, skipped)
    print("priority ok")
