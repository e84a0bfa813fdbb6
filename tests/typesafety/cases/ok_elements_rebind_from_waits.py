# Elements moved through a loop variable or a comprehension target, then taken back by
# rebinding the container from the waits: every element is usable again.
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def main(k: int = 3, n: int = 16) -> float:
    s = nx.stream()
    hosts = [nx.pinned_array(n, np.float32) for _ in range(k)]
    devs = [nx.device_array(n, np.float32) for _ in range(k)]
    ups = [s.upload(h, to=d) for h, d in zip(hosts, devs)]
    print(len(hosts), hosts[0].shape, hosts[-1].dtype)  # metadata: no use
    hosts = [t.wait() for t in ups]
    total = sum(float(h.read().sum()) for h in hosts) + float(hosts[0].read()[0])
    later: list[nx.Transfer[Host]] = []
    for h, d in zip(reversed(hosts), devs):
        later.append(s.upload(h, to=d))
    hosts = [t.wait() for t in later]
    for h in hosts:
        total += float(h.read()[0])
    hp = nx.split(nx.pinned_array(n, np.float32), k)
    dp = nx.split(nx.device_array(n, np.float32), k)
    parts = [s.upload(h, to=d) for h, d in zip(hp, dp)]
    hp = [t.wait() for t in parts]
    whole = nx.join(hp)
    s.close()
    return total + float(whole.read()[0])


main()
