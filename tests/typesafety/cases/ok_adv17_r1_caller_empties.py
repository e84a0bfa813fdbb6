# Rule 1, correct: after a drain that keeps its transfers, the caller empties the list
# element by element (while ...: pop()), or filters out the completed ones; close()
# then completes nothing twice.
# (from the adversarial review of session 17's rules)
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Img = nx.PinnedArray[nx.Owned, np.float32]


class Session:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.pending: list[nx.Transfer[Img]] = []

    def submit(self, n: int) -> None:
        dev = nx.device_array(n, np.float32)
        self.pending.append(self.s.download(dev, into=nx.pinned_array(n, np.float32)))

    def results(self) -> list[float]:
        out: list[float] = []
        for t in self.pending:
            out.append(float(t.wait().read().sum()))
        return out

    def prune(self) -> None:
        self.pending = [t for t in self.pending if not t.completed]

    def close(self) -> None:
        for t in self.pending:
            t.wait()
        self.pending.clear()


def popped() -> float:
    session = Session()
    session.submit(8)
    session.submit(4)
    got = session.results()
    while session.pending:
        session.pending.pop()
    session.close()
    return sum(got)


def pruned() -> float:
    session = Session()
    session.submit(8)
    got = session.results()
    session.submit(4)
    session.prune()
    session.close()
    return sum(got)


def filtered() -> float:
    session = Session()
    session.submit(8)
    got = session.results()
    session.pending = [t for t in session.pending if not t.completed]
    session.close()
    return sum(got)


popped()
pruned()
filtered()
