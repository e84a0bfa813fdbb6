# Waits that keep what they return: the buffers come back as new handles, so the code
# rebinds every name (a list from a comprehension, a scalar from wait()). Correct.
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
    hosts = [t.wait() for t in ups]
    total = sum(float(h.read().sum()) for h in hosts)
    host = hosts[0]
    up = s.upload(host, to=devs[0])
    host = up.wait()
    total += float(host.read()[0])
    s.close()
    return total


main()
