# Rule 1, correct: the session's drain is a generator method; a caller that makes the
# generator but closes it before iterating (or never iterates) completes nothing there,
# so close() completes each download once. Also a tuple attribute rebuilt by a method.
# (from the adversarial review of session 17's rules)
# RUN: ok
from __future__ import annotations

from collections.abc import Generator

import numpy as np

import numbaxfer as nx

Img = nx.PinnedArray[nx.Owned, np.float32]


class Session:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.pending: tuple[nx.Transfer[Img], ...] = ()

    def submit_batch(self, n: int, k: int) -> None:
        dev = nx.device_array(n, np.float32)
        self.pending = tuple(
            self.s.download(dev, into=nx.pinned_array(n, np.float32)) for _ in range(k)
        )

    def results(self) -> Generator[float, None, None]:
        for t in self.pending:
            yield float(t.wait().read().sum())

    def drain(self) -> list[float]:
        out: list[float] = []
        for t in self.pending:
            out.append(float(t.wait().read().sum()))
        return out

    def close(self) -> None:
        for t in self.pending:
            t.wait()
        self.pending = ()


def never_iterated(cancel: bool) -> float:
    session = Session()
    session.submit_batch(8, 2)
    gen = session.results()
    if cancel:
        gen.close()
        session.close()
        return 0.0
    return sum(gen)


def rebuilt_batch() -> float:
    session = Session()
    session.submit_batch(8, 2)
    got = session.drain()
    session.submit_batch(4, 3)
    session.close()
    return sum(got)


never_iterated(True)
never_iterated(False)
rebuilt_batch()
