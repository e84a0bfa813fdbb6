# RUN: raises BorrowError
# Two ways a lend reaches its owner indirectly: a property whose getter only returns an
# attribute (``with self.host.lend()``, ``host`` returning ``self._host``) lends that
# attribute; a ``@contextmanager`` method that yields inside ``with self.buf.lend()``
# keeps ``self.buf`` lent for the whole ``with self.inspect()`` block. Writing or moving
# the owner there is owner-borrowed.
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
View = nx.PinnedArray[nx.Lent, np.float32]


class Accumulator:
    def __init__(self, n: int) -> None:
        self._s = nx.stream()
        self._dev = nx.device_array(n, np.float32)
        self._host: Host = nx.pinned_array(n, np.float32)

    @property
    def host(self) -> Host:
        return self._host

    @contextmanager
    def inspect(self) -> Iterator[View]:
        with self._host.lend() as view:
            yield view

    def summary(self) -> float:
        with self.host.lend() as view:
            self._host = self._s.download(self._dev, into=self._host).wait()  # E: owner-borrowed
            return float(view.read().sum())

    def publish(self, value: float) -> float:
        with self.inspect() as view:
            before = float(view.read()[0])
            with self._host.write() as a:  # E: owner-borrowed
                a[:] = value
        return before


def main() -> None:
    acc = Accumulator(8)
    acc.summary()


main()
