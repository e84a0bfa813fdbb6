# Waits whose result is thrown away: wait() hands the buffer back as a NEW handle, and
# the code goes on with the old names, which the transfers retired.
# The fix for the old name names a rebind at the wait that discarded it (line 27).
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def main(k: int = 3, n: int = 16) -> float:
    s = nx.stream()
    hosts = [nx.pinned_array(n, np.float32) for _ in range(k)]
    devs = [nx.device_array(n, np.float32) for _ in range(k)]
    ups = [s.upload(h, to=d) for h, d in zip(hosts, devs)]
    for t in ups:
        t.wait()
    total = 0.0
    for h in hosts:
        total += float(h.read().sum())  # E: use-after-transfer "h"
    host = nx.pinned_array(n, np.float32)
    dev = nx.device_array(n, np.float32)
    up = s.upload(host, to=dev)
    up.wait()
    total += float(host.read()[0])  # E: use-after-transfer "host" "line 27"
    s.close()
    return total


main()
