# A worker object that borrows the caller's stream for one job: the lent stream is
# passed in, used inside the lend block, and never kept. Correct.
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Worker:
    def __init__(self, n: int) -> None:
        self.host = nx.pinned_array(n, np.float32)
        self.dev = nx.device_array(n, np.float32)

    def run(self, ls: nx.Stream[nx.Lent], value: float) -> float:
        with self.host.write() as a:
            a[:] = value
        up = ls.upload(self.host, to=self.dev)
        self.host = up.wait()
        return float(self.host.read()[0])


def main() -> float:
    s = nx.stream()
    w = Worker(16)
    total = 0.0
    for i in range(3):
        with s.lend() as ls:
            total += w.run(ls, float(i))
    s.close()
    return total


main()
