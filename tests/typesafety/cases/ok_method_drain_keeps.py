# Correct shapes of a drain: results() clears the list after completing it, takes each
# transfer out as it completes it, drains only under a test (the object's own protocol),
# or leaves early on some path; after a drain that keeps them, a call that rebuilds the
# list, or hands the object to other code, ends what is known.
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Img = nx.PinnedArray[nx.Owned, np.float32]


class Base:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.pending: list[nx.Transfer[Img]] = []
        self.ready = True

    def submit(self, n: int) -> None:
        dev = nx.device_array(n, np.float32)
        self.pending.append(self.s.download(dev, into=nx.pinned_array(n, np.float32)))

    def reset(self) -> None:
        self.pending = []

    def close(self) -> None:
        for t in self.pending:
            t.wait()
        self.pending.clear()


class Keeping(Base):
    def results(self) -> list[float]:
        out: list[float] = []
        for t in self.pending:
            out.append(float(t.wait().read().sum()))
        return out


def retire(b: Base) -> None:
    b.pending = []


class Clearing(Base):
    def results(self) -> list[float]:
        out = [float(t.wait().read().sum()) for t in self.pending]
        self.pending.clear()
        return out


class LoopThenClear(Base):
    def results(self) -> list[float]:
        out: list[float] = []
        for t in self.pending:
            out.append(float(t.wait().read().sum()))
        self.pending = []
        return out


class Popping(Base):
    def results(self) -> list[float]:
        out: list[float] = []
        while self.pending:
            out.append(float(self.pending.pop(0).wait().read().sum()))
        return out


class Guarded(Base):
    def results(self) -> list[float]:
        out: list[float] = []
        if self.ready:
            for t in self.pending:
                out.append(float(t.wait().read().sum()))
            self.pending.clear()
        return out


class EarlyExit(Base):
    def results(self) -> list[float]:
        out: list[float] = []
        if not self.ready:
            return out
        for t in self.pending:
            out.append(float(t.wait().read().sum()))
        self.pending.clear()
        return out


def clearing() -> None:
    b = Clearing()
    b.submit(8)
    b.results()
    b.close()


def loop_then_clear() -> None:
    b = LoopThenClear()
    b.submit(8)
    b.results()
    b.close()


def popping() -> None:
    b = Popping()
    b.submit(8)
    b.results()
    b.close()


def guarded() -> None:
    b = Guarded()
    b.submit(8)
    b.results()
    b.close()


def early_exit() -> None:
    b = EarlyExit()
    b.submit(8)
    b.results()
    b.close()


def rebuilt() -> None:
    b = Keeping()
    b.submit(8)
    b.results()
    b.reset()
    b.close()


def handed_on() -> None:
    b = Keeping()
    b.submit(8)
    b.results()
    retire(b)
    b.close()


clearing()
loop_then_clear()
popping()
guarded()
early_exit()
rebuilt()
handed_on()
