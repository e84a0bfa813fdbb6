# Rule 1, correct: results() keeps the completed downloads; close() completes only
# those not completed yet (t.completed), so nothing is completed twice.
# (from the adversarial review of session 17's rules)
# RUN: ok
from __future__ import annotations

from types import TracebackType

import numpy as np

import numbaxfer as nx

Img = nx.PinnedArray[nx.Owned, np.float32]


class Session:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.pending: list[nx.Transfer[Img]] = []

    def __enter__(self) -> Session:
        return self

    def submit(self, n: int) -> None:
        dev = nx.device_array(n, np.float32)
        self.pending.append(self.s.download(dev, into=nx.pinned_array(n, np.float32)))

    def results(self) -> list[float]:
        out: list[float] = []
        for t in self.pending:
            host = t.wait()
            out.append(float(host.read().sum()))
        return out

    def close(self) -> None:
        for t in self.pending:
            if not t.completed:
                t.wait()
        self.pending.clear()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def explicit() -> list[float]:
    session = Session()
    session.submit(8)
    got = session.results()
    session.close()
    return got


def with_block() -> list[float]:
    with Session() as session:
        session.submit(8)
        got = session.results()
    return got


def caller_loop() -> list[float]:
    session = Session()
    session.submit(8)
    got = session.results()
    for t in session.pending:
        if not t.completed:
            t.wait()
    return got


explicit()
with_block()
caller_loop()
