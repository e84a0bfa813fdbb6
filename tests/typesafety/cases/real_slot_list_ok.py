# A list of k slots indexed by the loop variable: every slot is uploaded in one loop
# and taken back, by the same index, in a second loop, before any read. Correct.
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def main(k: int = 4, n: int = 32) -> float:
    s = nx.stream()
    hosts = [nx.pinned_array(n, np.float32) for _ in range(k)]
    devs = [nx.device_array(n, np.float32) for _ in range(k)]
    for i in range(k):
        with hosts[i].write() as a:
            a[:] = i
    ups: list[nx.Transfer[Host]] = []
    for i in range(k):
        ups.append(s.upload(hosts[i], to=devs[i]))
    for i in range(k):
        hosts[i] = ups[i].wait()
    total = 0.0
    for i in range(k):
        total += float(hosts[i].read().sum())
    for i in range(k):
        t = s.upload(hosts[i], to=devs[i])
        hosts[i] = t.wait()
        total += float(hosts[i].read()[0])
    s.close()
    return total


main()
