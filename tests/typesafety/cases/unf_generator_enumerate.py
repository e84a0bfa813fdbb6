# A loop over enumerate(gen(...)), gen declared to yield transfers: each t is a
# transfer of the loop's own, as in a loop over gen(...) itself; returning early before
# t.wait() drops it.
# RUN: warns ResourceWarning anywhere
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
    for k, t in enumerate(scan(s, d, 4)):  # E: unfinished-transfer "t"
        if k >= budget:
            return None
        t.wait().free()
    return 0


def all_frames(s: nx.Stream[nx.Owned], d: Dev, budget: int) -> int:
    done = 0
    for k, t in enumerate(scan(s, d, 4)):
        host = t.wait()
        if k >= budget:
            host.free()
            break
        host.free()
        done += 1
    return done


stream = nx.stream()
dev = nx.device_array(8, np.float32)
first_over(stream, dev, 1)
all_frames(stream, dev, 2)
