# A benchmarking harness: warm-up iterations, then timed repetitions of an upload, each
# timed from enqueue to its own completion; medians printed at the end. The bug: the
# timed loop ends each repetition with s.synchronize() (the raw-CUDA habit) instead of
# completing the transfer, so the buffer never comes back.
# RUN: raises UseAfterTransferError
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
        t = s.upload(buf, to=dev)  # E: use-after-transfer "buf" "earlier loop iteration" # E: unfinished-transfer "t" "dropped" # E: unfinished-transfer "t" "left unfinished"
        s.synchronize()
        times.append(time.perf_counter() - start)
    dev.free()
    return buf, statistics.median(times)  # E: use-after-transfer "buf" "may be used"


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
