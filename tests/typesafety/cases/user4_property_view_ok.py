# A class whose property hands out a lent view of its host buffer: the property
# returns the lend scope, and callers enter it with a with-statement.
# RUN: ok
from __future__ import annotations

from contextlib import AbstractContextManager

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
View = nx.PinnedArray[nx.Lent, np.float32]
N = 16


class Histogram:
    def __init__(self, s: nx.Stream[nx.Lent]) -> None:
        self.s = s
        self.dev = nx.device_array(N, np.float32)
        self.counts: Host = nx.pinned_array(N, np.float32)

    @property
    def view(self) -> AbstractContextManager[View]:
        """A read-only view of the counts, for the duration of a with-block."""
        return self.counts.lend()

    @property
    def bins(self) -> int:
        return self.counts.shape[0]

    def load(self, values: list[float]) -> None:
        src = nx.pinned_copy(np.asarray(values, np.float32))
        src = self.s.upload(src, to=self.dev).wait()
        self.counts = self.s.download(self.dev, into=self.counts).wait()


def peak(h: Histogram) -> float:
    with h.view as v:
        return float(v.read().max())


def main() -> None:
    s = nx.stream()
    h = Histogram(s)
    h.load([float(i % 5) for i in range(N)])
    assert peak(h) == 4.0 and h.bins == N
    with h.view as v:
        print("bins", h.bins, "total", float(v.read().sum()))
    s.close()


main()
