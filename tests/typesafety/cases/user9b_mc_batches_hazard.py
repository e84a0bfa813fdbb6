# RUN: warns ResourceWarning anywhere
# Planted bug: on early convergence the loop breaks with the next batch's download still in flight; it is never waited (the transfer is dropped).
"""Monte Carlo estimate of pi: one kernel per batch, hit counts downloaded per batch,
the next batch overlapped with the host-side reduction of the previous one."""
from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

THREADS = 64
SAMPLES_PER_THREAD = 16
HostCounts = nx.PinnedArray[nx.Owned, np.int32]


@cuda.jit
def throw_darts(hits: Any, seed: int, per_thread: int) -> None:
    i = cuda.grid(1)
    if i < hits.size:
        state = (seed * 1103515245 + i * 2654435761) % 2147483648
        count = 0
        for _ in range(per_thread):
            state = (state * 1103515245 + 12345) % 2147483648
            x = state / 2147483648.0
            state = (state * 1103515245 + 12345) % 2147483648
            y = state / 2147483648.0
            if x * x + y * y <= 1.0:
                count += 1
        hits[i] = count


def launch_batch(s: nx.Stream[nx.Owned], hits: nx.DeviceArray[nx.Owned, np.int32],
                 host: nx.Consumed[HostCounts], seed: int) -> nx.Transfer[HostCounts]:
    s.launch(throw_darts, 1, THREADS, hits, seed, SAMPLES_PER_THREAD)
    return s.download(hits, into=host)


def main(max_batches: int = 40, tol: float = 0.05) -> None:
    s = nx.stream()
    hits = nx.device_array(THREADS, np.int32)
    spare = nx.pinned_array(THREADS, np.int32)
    inflight = launch_batch(s, hits, nx.pinned_array(THREADS, np.int32), seed=1)
    total_hits, total_samples = 0, 0
    estimate = 0.0
    for batch in range(1, max_batches):
        done = inflight.wait()
        inflight = launch_batch(s, hits, spare, seed=batch + 1)  # E: unfinished-transfer
        total_hits += int(done.read().sum())
        total_samples += THREADS * SAMPLES_PER_THREAD
        spare = done
        estimate = 4.0 * total_hits / total_samples
        stderr = 4.0 * math.sqrt(0.25 / total_samples)
        if stderr < tol and abs(estimate - math.pi) < 0.2:
            break
    else:
        spare = inflight.wait()
    print(f"pi ~ {estimate:.4f} from {total_samples} samples")
    s.synchronize()


if __name__ == "__main__":
    main()
