# A worker object that keeps the lent stream it was given (self.stream = ls) and
# enqueues on it after the caller's lend block has ended.
# RUN: raises BorrowError via-call
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Worker:
    def __init__(self, n: int) -> None:
        self.host = nx.pinned_array(n, np.float32)
        self.dev = nx.device_array(n, np.float32)
        self.stream: nx.Stream[nx.Lent] | None = None

    def attach(self, ls: nx.Stream[nx.Lent]) -> None:
        self.stream = ls

    def run(self, value: float) -> float:
        assert self.stream is not None
        with self.host.write() as a:
            a[:] = value
        up = self.stream.upload(self.host, to=self.dev)
        self.host = up.wait()
        return float(self.host.read()[0])


def main() -> float:
    s = nx.stream()
    w = Worker(16)
    with s.lend() as ls:
        w.attach(ls)
        total = w.run(1.0)
    total += w.run(2.0)  # E: lend-escape "ls"
    s.close()
    return total


main()
