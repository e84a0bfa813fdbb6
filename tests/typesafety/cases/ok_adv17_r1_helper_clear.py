# Rule 1, correct: the drain clears through a private helper method (self._reset()),
# or drains a copy and removes each one it completed; the later close() sees nothing.
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

    def _reset(self) -> None:
        self.pending = []

    def close(self) -> None:
        for t in self.pending:
            t.wait()
        self.pending.clear()


class ViaHelper(Base):
    def results(self) -> list[float]:
        out: list[float] = []
        for t in self.pending:
            out.append(float(t.wait().read().sum()))
        self._reset()
        return out


class Removing(Base):
    def results(self) -> list[float]:
        out: list[float] = []
        for t in list(self.pending):
            out.append(float(t.wait().read().sum()))
            self.pending.remove(t)
        return out


class SwapOut(Base):
    def results(self) -> list[float]:
        batch, self.pending = self.pending, []
        return [float(t.wait().read().sum()) for t in batch]


def helper() -> None:
    b = ViaHelper()
    b.submit(8)
    b.results()
    b.close()


def removing() -> None:
    b = Removing()
    b.submit(8)
    b.results()
    b.close()


def swap() -> None:
    b = SwapOut()
    b.submit(8)
    b.results()
    b.close()


helper()
removing()
swap()
