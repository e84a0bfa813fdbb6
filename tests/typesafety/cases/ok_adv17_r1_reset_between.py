# Rule 1, correct: after a drain that keeps its transfers, the caller (or a method)
# empties the list in ways other than clear()/= []: del self.pending[:],
# slice assignment, or a caller-side store. close() then has nothing to complete again.
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

    def forget(self) -> None:
        del self.pending[:]

    def forget_slice(self) -> None:
        self.pending[:] = []

    def close(self) -> None:
        for t in self.pending:
            t.wait()
        self.pending.clear()


def via_del() -> float:
    session = Session()
    session.submit(8)
    got = session.results()
    session.forget()
    session.close()
    return sum(got)


def via_slice() -> float:
    session = Session()
    session.submit(8)
    got = session.results()
    session.forget_slice()
    session.close()
    return sum(got)


def caller_store() -> float:
    session = Session()
    session.submit(8)
    got = session.results()
    session.pending = []
    session.close()
    return sum(got)


def caller_del() -> float:
    session = Session()
    session.submit(8)
    got = session.results()
    del session.pending[:]
    session.close()
    return sum(got)


via_del()
via_slice()
caller_store()
caller_del()
