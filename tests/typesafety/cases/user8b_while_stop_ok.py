# RUN: ok
"""Work-list loop with a counter: skips holes, stops at a marker, overlaps one download."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

HostF = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def ramp(a: Any, base: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = base + i


def drain_worklist(items: list[float | None], n: int) -> list[float]:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    out = nx.pinned_array(n, np.float32)
    pending: nx.Transfer[HostF] | None = None
    results: list[float] = []
    i = 0
    while i < len(items):
        item = items[i]
        i += 1
        if item is None:
            continue  # a hole in the work list
        if item < 0:
            break  # stop marker: the rest belongs to the next run
        if pending is not None:
            out = pending.wait()
            results.append(float(out.read()[-1]))
        s.launch(ramp, 1, 64, dev, item)
        pending = s.download(dev, into=out)
    if pending is not None:
        out = pending.wait()
        results.append(float(out.read()[-1]))
    out.free()
    s.close()
    return results


def main(n: int = 32) -> list[float]:
    items: list[float | None] = [1.0, None, 10.0, 100.0, None, -1.0, 1000.0]
    results = drain_worklist(items, n)
    expected = [1.0 + n - 1, 10.0 + n - 1, 100.0 + n - 1]
    assert all(r == e for r, e in zip(results, expected)), results
    return results


if __name__ == "__main__":
    main()
