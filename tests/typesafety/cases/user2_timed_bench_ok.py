# A timed benchmark loop, the way people port `cuda.event_elapsed_time` loops: a few
# warm-up rounds, then timed rounds of upload -> kernel -> download, a median, and a
# spot check of the result each round. Correct: the spot check reads `out` after the
# download's wait(), which is also where the round's time is taken.
# RUN: ok
from __future__ import annotations

import statistics
import time
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

N = 32
WARMUP = 2


@cuda.jit
def saxpy(x: Any, y: Any, a: float) -> None:
    i = cuda.grid(1)
    if i < x.size:
        y[i] = a * x[i] + y[i]


def bench(rounds: int) -> tuple[float, list[float]]:
    s = nx.stream()
    host = nx.pinned_copy(np.ones(N, dtype=np.float32))
    out = nx.pinned_array(N, np.float32)
    d_x = nx.device_array(N, np.float32)
    d_y = nx.device_array(N, np.float32)
    times: list[float] = []
    checks: list[float] = []
    for it in range(WARMUP + rounds):
        s.upload_staged(np.zeros(N, dtype=np.float32), to=d_y).wait()
        t0 = time.perf_counter()
        up = s.upload(host, to=d_x)
        s.launch(saxpy, 1, N, d_x, d_y, float(it))
        down = s.download(d_y, into=out)
        host = up.wait()
        out = down.wait()
        elapsed = time.perf_counter() - t0
        if it < WARMUP:
            continue
        times.append(elapsed)
        checks.append(float(out.read()[0]))
    s.close()
    return statistics.median(times), checks


def main() -> None:
    median, checks = bench(rounds=3)
    assert median > 0.0
    assert checks == [float(it) for it in range(WARMUP, WARMUP + 3)], checks
    print(f"median round trip {median * 1e6:.1f} us")


main()
