# RUN: ok
"""A small reactor: callbacks are scheduled with call_soon, transfers are watched with a
completion callback, and the loop polls done() until nothing is ready or watched."""

from __future__ import annotations

from collections import deque
from typing import Any, Callable

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Key = tuple[str, str]


@cuda.jit
def cube(a: Any) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = a[i] * a[i] * a[i]


class Reactor:
    def __init__(self) -> None:
        self.ready: deque[Callable[[], None]] = deque()
        self.watchers: dict[Key, tuple[nx.Transfer[Host], Callable[[Host], None]]] = {}
        self.ticks = 0

    def call_soon(self, cb: Callable[[], None]) -> None:
        self.ready.append(cb)

    def watch(self, key: Key, t: nx.Transfer[Host], cb: Callable[[Host], None]) -> None:
        self.watchers[key] = (t, cb)

    def _poll(self) -> None:
        for key in [k for k, (t, _) in self.watchers.items() if t.done()]:
            t, cb = self.watchers.pop(key)
            buf = t.wait()
            self.call_soon(lambda cb=cb, buf=buf: cb(buf))  # type: ignore[misc]

    def run(self) -> None:
        while self.ready or self.watchers:
            self.ticks += 1
            self._poll()
            while self.ready:
                self.ready.popleft()()


class CubeService:
    def __init__(self, reactor: Reactor, n: int) -> None:
        self.reactor, self.n = reactor, n
        self.stream = nx.stream()
        self.results: dict[str, float] = {}

    def submit(self, name: str, value: float) -> None:
        self.reactor.call_soon(lambda: self._start(name, value))

    def _start(self, name: str, value: float) -> None:
        dev = nx.device_array(self.n, np.float32)
        staging = nx.pinned_copy(np.full(self.n, value, dtype=np.float32))
        up = self.stream.upload(staging, to=dev)
        self.reactor.watch((name, "up"), up, self._release)
        self.stream.launch(cube, 2, 64, dev)
        down = self.stream.download(dev, into=nx.pinned_array(self.n, np.float32))
        self.reactor.watch((name, "down"), down, lambda buf: self._deliver(name, buf))
        dev.free()

    def _release(self, buf: Host) -> None:
        buf.free()

    def _deliver(self, name: str, buf: Host) -> None:
        self.results[name] = float(buf.read().sum(dtype=np.float64))
        buf.free()


def main() -> None:
    n = 256
    reactor = Reactor()
    svc = CubeService(reactor, n)
    for i, v in enumerate([1.0, 2.0, 3.0]):
        svc.submit(f"job{i}", v)
    reactor.run()
    svc.stream.close()
    assert svc.results == {"job0": 1.0 * n, "job1": 8.0 * n, "job2": 27.0 * n}
    print("ticks", reactor.ticks, "results", svc.results)


if __name__ == "__main__":
    main()
