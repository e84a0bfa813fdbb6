# RUN: raises BorrowError
# XFAIL: miss (line 61): the lambda registered with mon.subscribe() appends each lent view it is handed to `latest`; the views escape their lend block through a callback stored in another object's list and run by its method, which is not followed
# Planted bug: an observer callback stores the lent view it is handed, and main() reads that stored view after the lend block in step() has ended.
"""A particle-energy monitor: after each step the energies come back and registered
observer callbacks inspect a lent read-only view; observers keep only plain floats."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Lent = nx.PinnedArray[nx.Lent, np.float32]
Observer = Callable[[int, Lent], None]


@cuda.jit
def kinetic(v: Any, e: Any, dt: float) -> None:
    for i in range(cuda.grid(1), v.size, cuda.gridsize(1)):
        v[i] = v[i] * (1.0 - dt)
        e[i] = 0.5 * v[i] * v[i]


class EnergyMonitor:
    def __init__(self, n: int) -> None:
        self.s = nx.stream()
        self.v = nx.device_array(n, np.float32)
        self.e = nx.device_array(n, np.float32)
        self.host = nx.pinned_copy(np.linspace(0.0, 2.0, n).astype(np.float32))
        self.host = self.s.upload(self.host, to=self.v).wait()
        self.observers: list[Observer] = []

    def subscribe(self, fn: Observer) -> None:
        self.observers.append(fn)

    def step(self, k: int) -> None:
        self.s.launch(kinetic, 1, 64, self.v, self.e, 0.05)
        self.host = self.s.download(self.e, into=self.host).wait()
        with self.host.lend() as view:
            for fn in self.observers:
                fn(k, view)

    def close(self) -> None:
        self.s.close()


def main() -> None:
    totals: list[float] = []
    peaks: dict[int, float] = {}
    latest: list[Lent] = []
    mon = EnergyMonitor(256)
    mon.subscribe(lambda k, view: totals.append(float(view.read().sum())))
    mon.subscribe(lambda k, view: peaks.__setitem__(k, float(view.read().max())))
    mon.subscribe(lambda k, view: latest.append(view))
    for k in range(5):
        mon.step(k)
    print("last energies:", latest[-1].read()[:3])  # E: lend-escape
    mon.close()
    assert all(a > b for a, b in zip(totals, totals[1:])), totals
    assert peaks[0] > peaks[4]
    print("energy:", [round(t, 3) for t in totals])


if __name__ == "__main__":
    main()
