# A download polled with done() while the host does other work, with a deadline and a
# cancellation flag: every way out of the loop (done, cancelled, deadline) completes
# the transfer before the function returns, so the buffer is never left with the copy.
# RUN: ok
from __future__ import annotations

import time
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def ramp(a: Any) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] = i


def fetch(
    s: nx.Stream[nx.Owned], dev: nx.DeviceArray[nx.Owned, np.float32], out: nx.Consumed[Host],
    cancelled: bool, budget_s: float,
) -> tuple[Host, float | None]:
    s.launch(ramp, 1, dev.size, dev)
    down = s.download(dev, into=out)
    deadline = time.monotonic() + budget_s
    side_work = 0
    while True:
        if cancelled:
            out = down.wait()
            return out, None
        if down.done():
            break
        if time.monotonic() > deadline:
            out = down.wait()
            return out, None
        side_work += 1
    out = down.wait()
    return out, float(out.read().sum())


def main(n: int = 8) -> list[float | None]:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    out = nx.pinned_array(n, np.float32)
    results: list[float | None] = []
    for cancelled in (False, True, False):
        out, total = fetch(s, dev, out, cancelled, 1.0)
        results.append(total)
    s.close()
    assert results == [28.0, None, 28.0], results
    return results


main()
