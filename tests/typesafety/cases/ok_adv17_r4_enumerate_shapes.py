# Rule 4, correct: the generator's transfers handed to a helper (which completes them)
# before an early return; a transfer swapped into a pipeline slot whose previous
# occupant is completed; the last one completed after the loop.
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


def settle(t: nx.Transfer[Host]) -> float:
    h = t.wait()
    v = float(h.read()[0])
    h.free()
    return v


def handed(s: nx.Stream[nx.Owned], d: Dev, budget: int) -> float | None:
    for k, t in enumerate(scan(s, d, 4)):
        if k >= budget:
            settle(t)
            return None
        settle(t)
    return 0.0


def overlapped(s: nx.Stream[nx.Owned], d: Dev) -> int:
    prev: nx.Transfer[Host] | None = None
    count = 0
    for k, t in enumerate(scan(s, d, 5)):
        if prev is not None:
            prev.wait().free()
            count += 1
        prev = t
        if k == 3:
            break
    if prev is not None:
        prev.wait().free()
        count += 1
    return count


stream = nx.stream()
dev = nx.device_array(8, np.float32)
handed(stream, dev, 1)
print(overlapped(stream, dev))
