# A worker that keeps the lent stream it is given, but only for the length of the
# lend block: it runs inside the block and is detached (or attached to a new lend)
# before it runs again. Correct.
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx


class Worker:
    def __init__(self, n: int) -> None:
        self.host = nx.pinned_array(n, np.float32)
        self.dev = nx.device_array(n, np.float32)
        self.stream: nx.Stream[nx.Lent] | None = None

    def attach(self, ls: nx.Stream[nx.Lent]) -> None:
        self.stream = ls

    def detach(self) -> None:
        self.stream = None

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
    total = 0.0
    for i in range(3):
        with s.lend() as ls:
            w.attach(ls)
            total += w.run(float(i))
        w.detach()
    with s.lend() as ls:
        w.attach(ls)
        total += w.run(4.0)
    with s.lend() as again:
        w.attach(again)
        total += w.run(5.0)
    s.close()
    return total


main()
