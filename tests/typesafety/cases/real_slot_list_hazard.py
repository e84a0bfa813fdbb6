# A list of k slots indexed by the loop variable: every slot is uploaded in one loop,
# and a second loop reads each slot before taking it back.
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def main(k: int = 4, n: int = 32) -> float:
    s = nx.stream()
    hosts = [nx.pinned_array(n, np.float32) for _ in range(k)]
    devs = [nx.device_array(n, np.float32) for _ in range(k)]
    ups: list[nx.Transfer[Host]] = []
    for i in range(k):
        with hosts[i].write() as a:
            a[:] = i
        ups.append(s.upload(hosts[i], to=devs[i]))
    total = 0.0
    for i in range(k):
        total += float(hosts[i].read()[0])  # E: use-after-transfer "hosts["
        hosts[i] = ups[i].wait()
    s.close()
    return total


main()
