# What is computed from a lent handle is a new value: returning or storing it, its
# metadata, a copy of what it reads, a holder made inside the block, a closure used only
# inside the block, and a generator that yields the handle while its block is open are
# all fine.
# RUN: ok
from collections.abc import Iterator

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
View = nx.PinnedArray[nx.Lent, np.float32]


def total(host: Host) -> float:
    with host.lend() as v:
        return float(v.read().sum())


def shape(host: Host) -> tuple[int, ...]:
    with host.lend() as v:
        return v.shape


def snapshot(host: Host) -> np.ndarray:
    with host.lend() as v:
        return v.read().copy()


def sizes(host: Host) -> list[int]:
    out: list[int] = []
    with host.lend() as v:
        held: list[View] = []
        held.append(v)
        out.append(held[0].size)

        def twice() -> float:
            return 2 * float(v.read().sum())

        out.append(int(twice()))
    return out


def views(host: Host) -> Iterator[View]:
    with host.lend() as v:
        yield v


class Stats:
    def __init__(self) -> None:
        self.n = 0

    def count(self, host: Host) -> None:
        with host.lend() as v:
            self.n = v.size


h = nx.pinned_array(8, np.float32)
with h.write() as a:
    a[:] = 1.0
print(total(h), shape(h), snapshot(h)[0], sizes(h))
for view in views(h):
    print(view.read()[0])
st = Stats()
st.count(h)
print(st.n)
