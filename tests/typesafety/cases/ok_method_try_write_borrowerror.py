# RUN: ok
# A shared histogram whose update() tries to write in place and, when the buffer is
# lent to a reader (BorrowError: the write is refused and nothing changes), queues the
# update for later. Called inside a lend, it defers. Correct: the refusal is the point,
# as with `try: ... except nx.StreamClosedError:` around a call on a closed stream.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N = 8


class Histogram:
    def __init__(self) -> None:
        self.counts: Host = nx.pinned_copy(np.zeros(N, np.float32))
        self.backlog: list[int] = []

    def update(self, bin_: int) -> None:
        try:
            with self.counts.write() as a:
                a[bin_] += 1.0
        except nx.BorrowError:
            self.backlog.append(bin_)  # a reader holds it: apply later

    def drain(self) -> None:
        with self.counts.write() as a:
            for b in self.backlog:
                a[b] += 1.0
        self.backlog.clear()

    def report(self) -> float:
        with self.counts.lend() as view:
            total = float(view.read().sum())
            self.update(3)  # deferred: the histogram is lent
        self.drain()
        return total

    def close(self) -> None:
        self.counts.free()


def main() -> None:
    h = Histogram()
    h.update(1)
    print(h.report())
    print(h.counts.read())
    h.close()


main()
