# A histogram accumulator class with properties: `nbins` reads only the buffer's
# metadata (allowed while it is moved), `peak` reads its data; refresh() downloads the
# device counts into the host buffer and collect() takes it back. The caller reads
# `nbins` while the download runs and `peak` only after collect().
# Bug: `peak` is read before collect(): the property reads the buffer refresh() moved
# into the download.
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.int32]


@cuda.jit
def count(data: Any, bins: Any) -> None:
    i = cuda.grid(1)
    if i < data.size:
        cuda.atomic.add(bins, data[i] % bins.size, 1)


class Histogram:
    def __init__(self, nbins: int) -> None:
        self.s = nx.stream()
        self.d_bins = nx.device_array(nbins, np.int32)
        self.counts = nx.pinned_copy(np.zeros(nbins, np.int32))
        self.counts = self.s.upload(self.counts, to=self.d_bins).wait()
        self.pending: nx.Transfer[Host] | None = None

    @property
    def nbins(self) -> int:
        return self.counts.shape[0]

    @property
    def peak(self) -> int:
        return int(self.counts.read().max())

    def add(self, data: nx.DeviceArray[nx.Owned, np.int32]) -> None:
        self.s.launch(count, 1, data.size, data, self.d_bins)

    def refresh(self) -> None:
        self.pending = self.s.download(self.d_bins, into=self.counts)

    def collect(self) -> None:
        if self.pending is not None:
            self.counts = self.pending.wait()
            self.pending = None


def main(n: int = 24) -> tuple[int, int]:
    h = Histogram(4)
    s = nx.stream()
    data = nx.device_array(n, np.int32)
    src = nx.pinned_copy(np.arange(n, dtype=np.int32))
    src = s.upload(src, to=data).wait()
    h.add(data)
    h.refresh()
    bins = h.nbins
    peak = h.peak  # E: use-after-transfer "counts"
    h.collect()
    s.close()
    h.s.close()
    assert (bins, peak) == (4, n // 4), (bins, peak)
    return bins, peak


main()
