# Rule 1, correct: the drain's list is emptied through an alias of it (in the method,
# or in the caller), or in the for loop's else clause; close() then completes nothing.
# (from the adversarial review of session 17's rules)
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Img = nx.PinnedArray[nx.Owned, np.float32]


class Base:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.pending: list[nx.Transfer[Img]] = []

    def submit(self, n: int) -> None:
        dev = nx.device_array(n, np.float32)
        self.pending.append(self.s.download(dev, into=nx.pinned_array(n, np.float32)))

    def close(self) -> None:
        for t in self.pending:
            t.wait()
        self.pending.clear()


class AliasClear(Base):
    def results(self) -> list[float]:
        out: list[float] = []
        for t in self.pending:
            out.append(float(t.wait().read().sum()))
        queue = self.pending
        queue.clear()
        return out


class ElseClear(Base):
    def results(self) -> list[float]:
        out: list[float] = []
        for t in self.pending:
            out.append(float(t.wait().read().sum()))
        else:
            self.pending.clear()
        return out


class Keeping(Base):
    def results(self) -> list[float]:
        return [float(t.wait().read().sum()) for t in self.pending]


def alias_in_method() -> None:
    b = AliasClear()
    b.submit(8)
    b.results()
    b.close()


def else_clause() -> None:
    b = ElseClear()
    b.submit(8)
    b.results()
    b.close()


def alias_in_caller() -> None:
    b = Keeping()
    queue = b.pending
    b.submit(8)
    b.results()
    queue.clear()
    b.close()


alias_in_method()
else_clause()
alias_in_caller()
