# RUN: ok
# A transfer kept in a container and completed by its name is taken out before a loop
# completes the others (remove, pop, del, a rebuilt container, a method that may take
# it out), or the loop skips it: no report.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


def removed(s: nx.Stream[nx.Lent], dev: Dev, h: Host, g: Host) -> list[Host]:
    pending = [s.upload(g, to=dev)]
    t = s.upload(h, to=dev)
    pending.append(t)
    out = [t.wait()]
    pending.remove(t)
    for p in pending:
        out.append(p.wait())
    return out


def guarded(s: nx.Stream[nx.Lent], dev: Dev, h: Host, g: Host) -> list[Host]:
    t = s.upload(h, to=dev)
    pending = [s.upload(g, to=dev), t]
    out = [t.wait()]
    for p in pending:
        if not p.completed:
            out.append(p.wait())
    return out


def skipped(s: nx.Stream[nx.Lent], dev: Dev, h: Host, g: Host) -> list[Host]:
    t = s.upload(h, to=dev)
    pending = [t, s.upload(g, to=dev)]
    out = [t.wait()]
    for p in pending:
        if p is t:
            continue
        out.append(p.wait())
    return out


def rebuilt(s: nx.Stream[nx.Lent], dev: Dev, h: Host, g: Host) -> list[Host]:
    t = s.upload(h, to=dev)
    pending = [t, s.upload(g, to=dev)]
    out = [t.wait()]
    pending = [p for p in pending if p is not t]
    for p in pending:
        out.append(p.wait())
    return out


def rolling(s: nx.Stream[nx.Lent], dev: Dev, hosts: list[Host]) -> list[Host]:
    pending: list[nx.Transfer[Host]] = []
    out: list[Host] = []
    for h in hosts:
        t = s.upload(h, to=dev)
        pending.append(t)
        if len(pending) > 2:
            out.append(pending.pop(0).wait())
    for p in pending:
        out.append(p.wait())
    return out


def either(s: nx.Stream[nx.Lent], dev: Dev, hosts: list[Host], small: bool) -> list[Host]:
    pending: list[nx.Transfer[Host]] = []
    out: list[Host] = []
    for h in hosts:
        t = s.upload(h, to=dev)
        if small:
            out.append(t.wait())
        else:
            pending.append(t)
    for p in pending:
        out.append(p.wait())
    return out


def keyed(s: nx.Stream[nx.Lent], dev: Dev, h: Host) -> Host:
    jobs: dict[str, nx.Transfer[Host]] = {}
    t = s.upload(h, to=dev)
    jobs["weights"] = t
    h = t.wait()
    del jobs["weights"]
    for j in jobs.values():
        j.wait()
    return h


def popped(s: nx.Stream[nx.Lent], dev: Dev, h: Host) -> Host:
    jobs: dict[str, nx.Transfer[Host]] = {}
    t = s.upload(h, to=dev)
    jobs["weights"] = t
    h = jobs.pop("weights").wait()
    for j in jobs.values():
        j.wait()
    return h


class Queue:
    def __init__(self, s: nx.Stream[nx.Lent], dev: Dev) -> None:
        self.s, self.dev = s, dev
        self.inflight: list[nx.Transfer[Host]] = []

    def push(self, h: Host) -> Host:
        t = self.s.upload(h, to=self.dev)
        self.inflight.append(t)
        self.retire(t)
        got = t.wait()
        for p in self.inflight:
            p.wait()
        self.inflight.clear()
        return got

    def retire(self, t: nx.Transfer[Host]) -> None:
        self.inflight.remove(t)


def fresh() -> Host:
    return nx.pinned_array(16, np.float32)


s = nx.stream()
dev = nx.device_array(16, np.float32)
for got in (removed, guarded, skipped, rebuilt):
    for h in got(s, dev, fresh(), fresh()):
        h.free()
for h in rolling(s, dev, [fresh() for _ in range(4)]) + either(s, dev, [fresh()], False):
    h.free()
keyed(s, dev, fresh()).free()
popped(s, dev, fresh()).free()
Queue(s, dev).push(fresh()).free()
s.close()
