# A long-running kernel reports progress through a mapped (zero-copy) counter array the
# host polls with racy_peek(), and writes its histogram into a mapped output; after
# both mappings are waited the host reads the results, and a second pass maps the
# histogram again for a normalising kernel.
# Bug: the second pass reuses the first mapping's device view after m_bins.wait()
# ended it, instead of mapping the histogram again.
# RUN: raises UseAfterTransferError
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx


@cuda.jit
def histogram(data: Any, bins: Any, progress: Any) -> None:
    i = cuda.grid(1)
    if i < data.size:
        cuda.atomic.add(bins, data[i] % bins.size, 1)
        cuda.atomic.add(progress, 0, 1)


@cuda.jit
def halve(bins: Any) -> None:
    i = cuda.grid(1)
    if i < bins.size:
        bins[i] = bins[i] // 2


def run(n: int = 32, nbins: int = 4) -> list[int]:
    s = nx.stream()
    data = nx.device_array(n, np.int32)
    staging = nx.pinned_copy(np.arange(n, dtype=np.int32))
    staging = s.upload(staging, to=data).wait()
    bins = nx.mapped_array(nbins, np.int32)
    progress = nx.mapped_array(1, np.int32)
    with bins.write() as b:
        b[:] = 0
    with progress.write() as p:
        p[:] = 0
    m_bins = s.map(bins)
    m_prog = s.map(progress)
    s.launch(histogram, 1, n, data, m_bins.device, m_prog.device)
    seen = []
    while not m_prog.done():
        seen.append(int(m_prog.racy_peek()[0]))
    progress = m_prog.wait()
    bins = m_bins.wait()
    counts = [int(c) for c in bins.read()]
    assert int(progress.read()[0]) == n
    s.launch(halve, 1, nbins, m_bins.device)  # E: use-after-transfer "m_bins.device"
    halves = [int(c) for c in bins.read()]
    s.close()
    assert counts == [n // nbins] * nbins, counts
    assert halves == [n // nbins // 2] * nbins, halves
    return halves


run()
