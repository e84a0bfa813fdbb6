# A move made by the base class's method called through super() is seen in the override:
# a read of the buffer after super().submit() (directly, or through a method of self);
# and the methods a subclass inherits are the base's at a call on a subclass object.
# RUN: raises UseAfterTransferError
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

    def submit(self) -> None:
        self.pending = self.s.upload(self.host, to=self.dev)

    def collect(self) -> None:
        if self.pending is not None:
            self.host = self.pending.wait()
            self.pending = None

    def first(self) -> float:
        return float(self.host.read()[0])


class Direct(Stage):
    def submit(self) -> None:
        super().submit()
        print(self.host.read()[0])  # E: use-after-transfer "self.host" "Stage.submit()"


class Indirect(Stage):
    def submit(self) -> None:
        super().submit()
        print(self.first())  # E: use-after-transfer "self.host" "Stage.first()"


class Plain(Stage):
    """Inherits every method: calls on a Plain object apply Stage's summaries."""


def inherited() -> None:
    p = Plain(4)
    p.submit()
    p.first()  # E: use-after-transfer "p.host" "Stage.first()"
    p.collect()
    p.first()


def main() -> None:
    Direct(4).submit()


main()
