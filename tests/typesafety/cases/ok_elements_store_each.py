# Elements moved as hosts[i] (or through a loop variable) and stored back one by one, in
# a loop over the transfers: every element is usable again, also in the next epoch.
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def epochs(e: int = 2, k: int = 3, n: int = 16) -> float:
    s = nx.stream()
    hosts = [nx.pinned_array(n, np.float32) for _ in range(k)]
    devs = [nx.device_array(n, np.float32) for _ in range(k)]
    total = 0.0
    for _ in range(e):
        ups: list[nx.Transfer[Host]] = []
        for i in range(k):
            ups.append(s.upload(hosts[i], to=devs[i]))
        for i, t in enumerate(ups):
            hosts[i] = t.wait()
        total += float(hosts[0].read()[0])
        for h in hosts:
            total += float(h.read()[0])
    s.close()
    return total


def counted(k: int = 3, n: int = 16) -> float:
    s = nx.stream()
    hosts = [nx.pinned_array(n, np.float32) for _ in range(k)]
    dev = nx.device_array(n, np.float32)
    pending: list[nx.Transfer[Host]] = []
    i = 0
    while i < k:
        pending.append(s.upload(hosts[i], to=dev))
        i += 1
    j = 0
    while j < k:
        hosts[j] = pending[j].wait()
        j += 1
    total = float(hosts[k - 1].read()[0])
    for i, h in enumerate(hosts):
        up = s.upload(h, to=dev)
        hosts[i] = up.wait()  # moved and put back in the same iteration
    s.close()
    return total + float(hosts[0].read()[0])


def handed_back(k: int = 3, n: int = 16) -> float:
    s = nx.stream()
    hosts = [nx.pinned_array(n, np.float32) for _ in range(k)]
    dev = nx.device_array(n, np.float32)
    ups = [s.upload(h, to=dev) for h in hosts]
    restore(hosts, ups)  # a function taking a mutable list of handles may put them back
    s.close()
    return float(hosts[0].read()[0])


def restore(hosts: list[Host], ups: list[nx.Transfer[Host]]) -> None:
    hosts[:] = [t.wait() for t in ups]


epochs()
counted()
handed_back()
