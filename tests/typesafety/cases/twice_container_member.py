# RUN: raises UseAfterTransferError
# A transfer added to a container (``pending.append(t)``, ``jobs[k] = t``, ``[t]``) is
# still an element of it after ``t.wait()``: a loop that completes every element
# completes ``t`` a second time, unless ``t`` was taken out (remove, pop, del, clear)
# or the container was rebuilt.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


def rolling(s: nx.Stream[nx.Lent], dev: Dev, hosts: list[Host]) -> list[Host]:
    pending: list[nx.Transfer[Host]] = []
    for h in hosts:
        t = s.upload(h, to=dev)
        pending.append(t)
    newest = t.wait()  # the newest one is needed first
    out = [newest]
    for p in pending:
        out.append(p.wait())  # E: transfer-completed-twice "an element of \"pending\", which still holds \"t\"" "take \"t\" out of \"pending\""
    return out


def keyed(s: nx.Stream[nx.Lent], dev: Dev, h: Host) -> None:
    jobs: dict[str, nx.Transfer[Host]] = {}
    t = s.upload(h, to=dev)
    jobs["weights"] = t
    h = t.wait()
    for j in jobs.values():
        j.wait()  # E: transfer-completed-twice "which still holds \"t\""


def display(s: nx.Stream[nx.Lent], dev: Dev, h: Host, g: Host) -> None:
    t = s.upload(h, to=dev)
    batch = [t, s.upload(g, to=dev)]
    h = t.wait()
    for b in batch:
        b.wait()  # E: transfer-completed-twice


class Queue:
    def __init__(self, s: nx.Stream[nx.Lent], dev: Dev) -> None:
        self.s, self.dev = s, dev
        self.inflight: list[nx.Transfer[Host]] = []

    def push_and_flush(self, h: Host) -> Host:
        t = self.s.upload(h, to=self.dev)
        self.inflight.append(t)
        got = t.wait()
        for p in self.inflight:
            p.wait()  # E: transfer-completed-twice "\"self.inflight\""
        self.inflight.clear()
        return got


s = nx.stream()
rolling(s, nx.device_array(16, np.float32), [nx.pinned_array(16, np.float32) for _ in range(3)])
s.close()
