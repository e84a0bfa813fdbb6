# A histogram into mapped (zero-copy) memory: the bins live in a mapped array that the
# kernel increments in place; the host reads them after the mapping's wait(). Two
# batches: the second maps the bins again. Correct: every launch uses the device view of
# a live mapping, and the bins are read only after wait().
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

BINS = 4
N = 32


@cuda.jit
def histogram(values: Any, bins: Any) -> None:
    i = cuda.grid(1)
    if i < values.size:
        b = min(int(values[i]), bins.size - 1)
        cuda.atomic.add(bins, b, 1)


def main() -> None:
    s = nx.stream()
    bins = nx.mapped_array(BINS, np.int32)
    with bins.write() as a:
        a[:] = 0
    d_values = nx.device_array(N, np.float32)
    rng = np.random.default_rng(0)
    batch1 = rng.uniform(0, BINS, N).astype(np.float32)
    batch2 = rng.uniform(0, BINS, N).astype(np.float32)

    s.upload_staged(batch1, to=d_values).wait()
    mp = s.map(bins)
    s.launch(histogram, 1, N, d_values, mp.device)
    bins = mp.wait()
    after_first = bins.read().copy()

    s.upload_staged(batch2, to=d_values).wait()
    mp = s.map(bins)  # a new mapping for the second batch
    s.launch(histogram, 1, N, d_values, mp.device)
    bins = mp.wait()
    counts = bins.read().copy()
    s.close()

    expected1 = np.bincount(np.minimum(batch1.astype(int), BINS - 1), minlength=BINS)
    expected2 = expected1 + np.bincount(np.minimum(batch2.astype(int), BINS - 1), minlength=BINS)
    assert (after_first == expected1).all() and (counts == expected2).all(), counts


main()
