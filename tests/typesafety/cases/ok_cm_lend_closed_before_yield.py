# RUN: ok
# Context managers of a sensor buffer that lend it only to compute statistics and
# release the lend before they yield (the caller gets plain numbers, or a copy), plus
# one that lends a copy. Writing the buffer inside their blocks is correct.
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
View = nx.PinnedArray[nx.Lent, np.float32]
N = 16


class Sensor:
    def __init__(self) -> None:
        self._buf: Host = nx.pinned_copy(np.arange(N, dtype=np.float32))
        self._snap: Host = nx.pinned_array(N, np.float32)

    @contextmanager
    def stats(self) -> Iterator[tuple[float, float]]:
        with self._buf.lend() as v:
            data = v.read()
            lo, hi = float(data.min()), float(data.max())
        yield lo, hi

    @contextmanager
    def snapshot(self) -> Iterator[View]:
        with self._buf.lend() as v:
            with self._snap.write() as s:
                s[:] = v.read()
        with self._snap.lend() as view:
            yield view

    def normalise(self) -> None:
        with self.stats() as (lo, hi):
            with self._buf.write() as a:
                a[:] = (a - lo) / (hi - lo)

    def smooth(self) -> None:
        with self.snapshot() as prev:
            with self._buf.write() as a:
                p = prev.read()
                a[1:-1] = (p[:-2] + p[1:-1] + p[2:]) / 3.0

    def close(self) -> None:
        self._buf.free()
        self._snap.free()


def main() -> None:
    s = Sensor()
    s.normalise()
    s.smooth()
    s.close()


main()
