# Rule 1, correct: the drain that keeps runs on one session, close() on another;
# and a session name rebound to a fresh object before close().
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
        self.done: list[Img] = []

    def submit(self, n: int) -> None:
        dev = nx.device_array(n, np.float32)
        self.pending.append(self.s.download(dev, into=nx.pinned_array(n, np.float32)))

    def results(self) -> list[float]:
        out: list[float] = []
        for t in self.pending:
            out.append(float(t.wait().read().sum()))
        return out

    def close(self) -> None:
        for t in self.pending:
            t.wait()
        self.pending.clear()


def two() -> float:
    a = Session()
    b = Session()
    a.submit(8)
    b.submit(8)
    got = a.results()
    b.close()
    a.pending.clear()
    a.close()
    return sum(got)


def rebound() -> float:
    session = Session()
    session.submit(8)
    got = session.results()
    session.pending.clear()
    session = Session()
    session.submit(4)
    session.close()
    return sum(got)


def refill() -> float:
    session = Session()
    session.submit(8)
    got = session.results()
    session.pending = []
    session.submit(8)
    session.submit(4)
    session.close()
    return sum(got)


two()
rebound()
refill()
