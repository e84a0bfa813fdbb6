# Overrides that call the base class's method through super(): reading the buffer before
# super().submit() moves it, reading only its metadata after, and reading it after
# super().collect() took it back are all correct; so is an override whose base method
# moves nothing; and a subclass inheriting submit() and collect() is clean in between.
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Stage:
    def __init__(self, n: int) -> None:
        self.s = nx.stream()
        self.host = nx.pinned_copy(np.ones(n, np.float32))
        self.dev = nx.device_array(n, np.float32)
        self.pending: nx.Transfer[Host] | None = None
        self.log: list[str] = []

    def submit(self) -> None:
        self.pending = self.s.upload(self.host, to=self.dev)

    def collect(self) -> float:
        if self.pending is not None:
            self.host = self.pending.wait()
            self.pending = None
        return float(self.host.read().sum())

    def note(self, text: str) -> None:
        self.log.append(text)


class Verbose(Stage):
    def submit(self) -> None:
        first = float(self.host.read()[0])
        super().submit()
        self.note(f"submitted {self.host.shape} first={first}")

    def collect(self) -> float:
        total = super().collect()
        self.note(f"collected {self.host.read()[0]}")
        return total

    def note(self, text: str) -> None:
        super().note(text.upper())


class Plain(Stage):
    """Inherits every method: Stage.collect() takes the buffer back."""


def main() -> None:
    p = Plain(4)
    p.submit()
    assert p.collect() == 4.0
    p.host.read()
    p.s.close()
    v = Verbose(4)
    v.submit()
    assert v.collect() == 4.0
    assert v.log == ["SUBMITTED (4,) FIRST=1.0", "COLLECTED 1.0"], v.log
    v.s.close()


main()
