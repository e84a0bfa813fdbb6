# Rule 6, correct: a dict of jobs drained by assemble(); the "main" entry is replaced
# before a helper completes jobs["main"]; and a queue object whose method completes
# self.pending[0] after drain_all() completed and refilled the list.
# (from the adversarial review of session 17's rules)
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


def assemble(jobs: dict[str, nx.Transfer[Host]]) -> list[Host]:
    return [t.wait() for t in jobs.values()]


def preview(jobs: dict[str, nx.Transfer[Host]]) -> float:
    return float(jobs["main"].wait().read()[0])


def by_name(s: nx.Stream[nx.Owned], d: Dev) -> float:
    jobs = {n: s.download(d, into=nx.pinned_array(8, np.float32)) for n in ("main", "aux")}
    tiles = assemble(jobs)
    jobs["main"] = s.download(d, into=nx.pinned_array(8, np.float32))
    return preview(jobs) + len(tiles)


class Queue:
    def __init__(self, s: nx.Stream[nx.Owned], d: Dev) -> None:
        self.s = s
        self.d = d
        self.pending: list[nx.Transfer[Host]] = []

    def fill(self, n: int) -> None:
        for _ in range(n):
            self.pending.append(self.s.download(self.d, into=nx.pinned_array(8, np.float32)))

    def drain_all(self) -> list[Host]:
        out = [t.wait() for t in self.pending]
        self.pending = [self.s.download(self.d, into=nx.pinned_array(8, np.float32))]
        return out

    def head(self) -> Host:
        return self.pending[0].wait()

    def close(self) -> None:
        for t in self.pending[1:]:
            t.wait()
        self.pending.clear()


def queued(s: nx.Stream[nx.Owned], d: Dev) -> int:
    q = Queue(s, d)
    q.fill(3)
    got = q.drain_all()
    h = q.head()
    q.close()
    return len(got) + h.shape[0]


stream = nx.stream()
dev = nx.device_array(8, np.float32)
by_name(stream, dev)
queued(stream, dev)
