# A benchmarking harness: warm-up iterations, then timed repetitions of an upload, each
# timed from enqueue to its own completion; medians printed at the end.
# RUN: ok
from __future__ import annotations

import statistics
import time

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def bench_upload(s: nx.Stream[nx.Lent], buf: Host, warmup: int, reps: int) -> tuple[Host, float]:
    dev = nx.device_array(buf.shape, np.float32)
    for _ in range(warmup):
        t = s.upload(buf, to=dev)
        buf = t.wait()
    times: list[float] = []
    for _ in range(reps):
        start = time.perf_counter()
        t = s.upload(buf, to=dev)
        buf = t.wait()
        times.append(time.perf_counter() - start)
    dev.free()
    return buf, statistics.median(times)


def main() -> None:
    s = nx.stream()
    report: dict[int, float] = {}
    for n in (16, 64, 256):
        buf = nx.pinned_copy(np.arange(n, dtype=np.float32))
        buf, med = bench_upload(s, buf, warmup=2, reps=5)
        report[n] = med
        assert float(buf.read()[-1]) == n - 1
    for n, med in report.items():
        print(f"{n:6d} floats: {med * 1e6:8.1f} us")
    s.close()


main()
