# Rule 4, correct: loops over enumerate(gen(...)) that complete t before an early
# return, collect t and complete the collected ones after the loop, or start counting
# at 1 and break only after completing.
# (from the adversarial review of session 17's rules)
# RUN: ok
from __future__ import annotations

from collections.abc import Iterator

import numpy as np

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]
Host = nx.PinnedArray[nx.Owned, np.float32]


def scan(s: nx.Stream[nx.Owned], d: Dev, n: int) -> Iterator[nx.Transfer[Host]]:
    for _ in range(n):
        yield s.download(d, into=nx.pinned_array(8, np.float32))


def first_over(s: nx.Stream[nx.Owned], d: Dev, budget: int) -> int | None:
    for k, t in enumerate(scan(s, d, 4)):
        host = t.wait()
        if k >= budget:
            host.free()
            return None
        host.free()
    return 0


def wait_then_return(s: nx.Stream[nx.Owned], d: Dev, budget: int) -> float | None:
    for k, t in enumerate(scan(s, d, 4), start=1):
        if k > budget:
            t.wait().free()
            return None
        h = t.wait()
        h.free()
    return 1.0


def collected(s: nx.Stream[nx.Owned], d: Dev) -> int:
    kept: list[nx.Transfer[Host]] = []
    for k, t in enumerate(scan(s, d, 4)):
        if k % 2 == 0:
            kept.append(t)
        else:
            t.wait().free()
    for t in kept:
        t.wait().free()
    return len(kept)


stream = nx.stream()
dev = nx.device_array(8, np.float32)
first_over(stream, dev, 1)
wait_then_return(stream, dev, 2)
collected(stream, dev)
