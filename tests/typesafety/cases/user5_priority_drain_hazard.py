# Downloads collected in priority order from a heap (see user5_priority_drain_ok.py).
# XFAIL: miss: downloads pushed on a heap as (priority, seq, transfer) tuples (heapq.heappush, line 33) and left there by the "break" once the budget is spent (line 40) are never completed; nothing is reported (expected at s.close(), line 44, where the runtime names them)
# The bug, kind "transfers never waited (left in a container)": once the time budget is
# spent the collector breaks out of the loop, leaving the remaining downloads on the
# heap, never completed. (The budget is 0 here, so the break is taken.)
# RUN: raises StreamClosedError
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
        if time.monotonic() > deadline:
            skipped = len(heap)
            break
        _, _, t = heapq.heappop(heap)
        buf = t.wait()
        got.append(float(buf.read()[0]))
    s.close()  # E: unfinished-transfer
    return got, skipped


if __name__ == "__main__":
    got, skipped = collect([(2, 20.0), (0, 0.5), (1, 10.0)], budget_s=0.0)
    assert got == [] and skipped == 3, (got, skipped)
    print("priority ok")
