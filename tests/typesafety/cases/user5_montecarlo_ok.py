# Monte-Carlo estimate of pi, batch by batch: each batch's uniform samples are drawn on
# the host (numpy's Generator), copied into one pinned batch buffer and uploaded; a
# kernel counts the points inside the unit circle into a device counter, downloaded once
# at the end. The next batch is drawn into a numpy array while the copy runs, and written
# into the pinned buffer only once the upload has given it back.
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Batch = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def count_inside(xy: Any, hits: Any) -> None:
    for i in range(cuda.grid(1), xy.shape[0], cuda.gridsize(1)):
        x = xy[i, 0]
        y = xy[i, 1]
        if x * x + y * y <= 1.0:
            cuda.atomic.add(hits, 0, 1)


def draw(rng: np.random.Generator, n: int) -> Any:
    return rng.random((n, 2), dtype=np.float32)


def estimate_pi(batches: int = 4, n: int = 128, seed: int = 7) -> float:
    rng = np.random.default_rng(seed)
    s = nx.stream()
    batch: Batch = nx.pinned_array((n, 2), np.float32)
    d_batch = nx.device_array((n, 2), np.float32)
    hits = nx.device_array(1, np.int32)
    s.upload_staged(np.zeros(1, np.int32), to=hits)

    samples = draw(rng, n)
    for b in range(batches):
        with batch.write() as a:
            a[:] = samples
        up = s.upload(batch, to=d_batch)
        s.launch(count_inside, 2, 32, d_batch, hits)
        if b + 1 < batches:
            samples = draw(rng, n)  # the next draw overlaps the copy and the kernel
        batch = up.wait()  # the buffer is ours again for the next batch

    counter = nx.pinned_array(1, np.int32)
    down = s.download(hits, into=counter)
    counter = down.wait()
    inside = int(counter.read()[0])
    s.close()
    return 4.0 * inside / (batches * n)


def reference(batches: int = 4, n: int = 128, seed: int = 7) -> float:
    rng = np.random.default_rng(seed)
    inside = 0
    for _ in range(batches):
        xy = draw(rng, n)
        inside += int(np.count_nonzero(xy[:, 0] ** 2 + xy[:, 1] ** 2 <= 1.0))
    return 4.0 * inside / (batches * n)


if __name__ == "__main__":
    est = estimate_pi()
    assert est == reference(), (est, reference())
    print(f"pi ~ {est}")
