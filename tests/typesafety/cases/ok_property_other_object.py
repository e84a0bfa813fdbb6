# RUN: ok
# Copying from another accumulator: its buffer is lent through the `host` property
# (a getter returning self._host) while this object's own buffer is written. Two
# different objects of one class: correct.
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
View = nx.PinnedArray[nx.Lent, np.float32]
N = 8


class Accumulator:
    def __init__(self) -> None:
        self._host: Host = nx.pinned_array(N, np.float32)
        with self._host.write() as a:
            a[:] = 0.0

    @property
    def host(self) -> Host:
        return self._host

    @contextmanager
    def inspect(self) -> Iterator[View]:
        with self._host.lend() as view:
            yield view

    def copy_from(self, other: Accumulator) -> None:
        with other.host.lend() as src:
            with self._host.write() as a:
                a[:] = src.read()

    def add_from(self, other: Accumulator) -> None:
        with other.inspect() as src:
            with self._host.write() as a:
                a[:] += src.read()

    def bump(self, value: float) -> None:
        with self._host.write() as a:
            a[:] += value

    def close(self) -> None:
        self._host.free()


def main() -> None:
    a, b = Accumulator(), Accumulator()
    a.bump(1.0)
    b.copy_from(a)
    b.add_from(a)
    with a.inspect() as va:
        b.bump(float(va.read()[0]))
    with a.host.lend() as va:
        b.bump(float(va.read()[0]))
    print(b.host.read())
    a.close()
    b.close()


main()
