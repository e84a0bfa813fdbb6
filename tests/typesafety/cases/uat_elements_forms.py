# Elements of a list moved in a loop that the checker cannot follow element by element
# (a while loop's counter, a comprehension over an index), then used: read one, hand the
# list to a function that reads handles (a Sequence parameter), iterate it.
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def total(bufs: Sequence[Host]) -> float:
    return sum(float(b.read()[0]) for b in bufs)


def counted(k: int = 3, n: int = 16) -> float:
    s = nx.stream()
    hosts = [nx.pinned_array(n, np.float32) for _ in range(k)]
    dev = nx.device_array(n, np.float32)
    pending: list[nx.Transfer[Host]] = []
    i = 0
    while i < k:
        pending.append(s.upload(hosts[i], to=dev))
        i += 1
    first = float(hosts[0].read()[0])  # E: use-after-transfer "\"hosts[0]\" (an element of \"hosts\")" "as \"hosts[i]\"" "hosts[i] = pending[i].wait()"
    got = total(hosts)  # E: use-after-transfer "The elements of \"hosts\" (passed to total())"
    s.close()
    return first + got


def indexed(k: int = 3, n: int = 16) -> float:
    s = nx.stream()
    hosts = [nx.pinned_array(n, np.float32) for _ in range(k)]
    dev = nx.device_array(n, np.float32)
    ups = [s.upload(hosts[i], to=dev) for i in range(k)]
    out = [float(h.read()[0]) for h in hosts]  # E: use-after-transfer "\"h\" (an element of \"hosts\")" "hosts = [t.wait() for t in ups]"
    hosts = [t.wait() for t in ups]
    s.close()
    return sum(out)


counted()
indexed()
