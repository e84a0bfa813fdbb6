# A lend wrapped in a user @contextmanager: the lent handle it yields is used only
# inside the caller's with-block. Correct.
# RUN: ok
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


def stats(host: Host) -> tuple[float, float]:
    with inspecting(host, "stats") as v:
        data = v.read()
        lo, hi = float(data.min()), float(data.max())
    return lo, hi


def main() -> float:
    host = nx.pinned_array(32, np.float32)
    with host.write() as a:
        a[:] = np.arange(32, dtype=np.float32)
    lo, hi = stats(host)
    with inspecting(host, "sum") as v:
        total = float(v.read().sum())
    with host.write() as a:
        a[:] = 0.0
    return lo + hi + total


main()
