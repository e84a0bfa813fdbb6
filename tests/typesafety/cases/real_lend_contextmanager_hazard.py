# A lend wrapped in a user @contextmanager: the caller keeps the yielded lent handle
# and reads it after its with-block (the lend has ended).
# RUN: raises BorrowError via-call
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
View = nx.PinnedArray[nx.Lent, np.float32]


@contextmanager
def inspecting(host: Host, what: str) -> Iterator[View]:
    """Lend ``host`` for the block and log what is being looked at."""
    with host.lend() as view:
        print(f"inspecting {what}: {view.label}")
        yield view


def main() -> float:
    host = nx.pinned_array(32, np.float32)
    with host.write() as a:
        a[:] = np.arange(32, dtype=np.float32)
    with inspecting(host, "sum") as v:
        total = float(v.read().sum())
    total += float(v.read()[0])  # E: lend-escape "v"
    return total


main()
