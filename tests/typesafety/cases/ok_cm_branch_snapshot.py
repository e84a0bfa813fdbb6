# RUN: ok
# A live buffer and a snapshot of it. `current()` lends the snapshot while one is being
# shown, else the live buffer. refresh() selects the snapshot, then writes the live
# buffer inside the block: the lent one is the snapshot. Correct.
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
View = nx.PinnedArray[nx.Lent, np.float32]
N = 8


class Display:
    def __init__(self) -> None:
        self._live: Host = nx.pinned_copy(np.zeros(N, np.float32))
        self._snap: Host = nx.pinned_copy(np.zeros(N, np.float32))
        self._frozen = False

    @contextmanager
    def current(self) -> Iterator[View]:
        if self._frozen:
            with self._snap.lend() as v:
                yield v
        else:
            with self._live.lend() as v:
                yield v

    def freeze(self) -> None:
        with self._live.lend() as v:
            with self._snap.write() as a:
                a[:] = v.read()
        self._frozen = True

    def refresh(self) -> float:
        self.freeze()
        with self.current() as shown:  # the snapshot
            with self._live.write() as a:
                a[:] = shown.read() + 1.0
        self._frozen = False
        with self.current() as shown:
            return float(shown.read().sum())

    def close(self) -> None:
        self._live.free()
        self._snap.free()


def main() -> None:
    d = Display()
    print(d.refresh())
    d.close()


main()
