# RUN: warns ResourceWarning anywhere
# Planted bug: the staging upload is treated as fire-and-forget; its transfer is discarded and never waited.
"""A thread pool filtering image rows: each worker borrows a stream from a queue,
stages its rows through a fresh pinned buffer, runs a 3-tap blur and hands the
result back through a results queue."""
from __future__ import annotations

import queue
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

W = 64
F32 = np.float32


@cuda.jit
def blur3(src: Any, dst: Any) -> None:
    i = cuda.grid(1)
    n = src.size
    if i < n:
        lo = src[i - 1] if i > 0 else src[i]
        hi = src[i + 1] if i < n - 1 else src[i]
        dst[i] = 0.25 * lo + 0.5 * src[i] + 0.25 * hi


def work(row_id: int, row: np.ndarray[Any, Any], streams: queue.Queue[nx.Stream[nx.Owned]],
         results: queue.Queue[tuple[int, float]]) -> None:
    s = streams.get()
    try:
        staging = nx.pinned_copy(row.astype(F32))
        src_d, dst_d = nx.device_array(W, F32), nx.device_array(W, F32)
        s.upload(staging, to=src_d)  # E: unfinished-transfer
        s.launch(blur3, 1, W, src_d, dst_d)
        out = s.download(dst_d, into=nx.pinned_array(W, F32)).wait()
        results.put((row_id, float(out.read().sum())))
        out.free()
    finally:
        streams.put(s)


def main(rows: int = 12, workers: int = 3) -> None:
    rng = np.random.default_rng(2)
    image = rng.uniform(0.0, 1.0, (rows, W))
    streams: queue.Queue[nx.Stream[nx.Owned]] = queue.Queue()
    for _ in range(workers):
        streams.put(nx.stream())
    results: queue.Queue[tuple[int, float]] = queue.Queue()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(work, r, image[r], streams, results) for r in range(rows)]
        for f in futures:
            f.result()
    sums = dict(results.get() for _ in range(rows))
    for r in range(rows):
        assert abs(sums[r] - image[r].sum()) < 0.5
    print(f"{rows} rows blurred, mean row sum {np.mean(list(sums.values())):.4f}")
    while not streams.empty():
        streams.get().close()


if __name__ == "__main__":
    main()
