# RUN: ok
"""A result cache that refreshes a pinned mirror of a device histogram and exposes it
through a @contextmanager that lends the mirror read-only."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.int64]
Dev = nx.DeviceArray[nx.Owned, np.int64]
View = nx.PinnedArray[nx.Lent, np.int64]


@cuda.jit
def bump(hist: Any, bin_: int, by: int) -> None:
    i = cuda.grid(1)
    if i == bin_:
        hist[i] += by


class HistogramMirror:
    def __init__(self, bins: int) -> None:
        self.stream = nx.stream()
        self.dev: Dev = nx.device_array(bins, np.int64)
        self.stream.upload_staged(np.zeros(bins, np.int64), to=self.dev)
        self._host: Host = nx.pinned_array(bins, np.int64)
        self.refreshes = 0

    def add(self, bin_: int, by: int = 1) -> None:
        self.stream.launch(bump, 1, self.dev.size, self.dev, bin_, by)

    def refresh(self) -> None:
        self._host = self.stream.download(self.dev, into=self._host).wait()
        self.refreshes += 1

    @contextmanager
    def view(self) -> Iterator[View]:
        self.refresh()
        with self._host.lend() as v:
            yield v

    def close(self) -> None:
        self.stream.close()


def summarize(mirror: HistogramMirror) -> tuple[int, int]:
    with mirror.view() as v:
        counts = v.read()
        total = int(counts.sum())
        mode = int(counts.argmax())
    return total, mode


def main() -> None:
    mirror = HistogramMirror(8)
    for b in [1, 3, 3, 5, 3, 7]:
        mirror.add(b)
    total, mode = summarize(mirror)
    mirror.add(5, by=4)
    total2, mode2 = summarize(mirror)
    mirror.close()
    assert (total, mode) == (6, 3), (total, mode)
    assert (total2, mode2) == (10, 5), (total2, mode2)
    print("contextmanager view: refreshes", mirror.refreshes)


if __name__ == "__main__":
    main()
