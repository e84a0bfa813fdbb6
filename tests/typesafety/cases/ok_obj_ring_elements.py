# RUN: ok
# Correct rings on self: no report. The element read is taken back first (by the method
# itself or by one it calls), looked at through the transfers (``self.pending[k]``) or a
# guard, the ring is drained before it is read, or the moving method reads no element
# before the take-back of that element.
import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Ring:
    def __init__(self, depth: int) -> None:
        self.s = nx.stream()
        self.dev = nx.device_array(8, np.float32)
        self.bufs = [nx.pinned_array(8, np.float32) for _ in range(depth)]
        self.pending: list[nx.Transfer[Host] | None] = [None] * depth
        self.head = 0

    def _settle(self, k: int) -> None:
        t = self.pending[k]
        if t is not None:
            self.bufs[k] = t.wait()
            self.pending[k] = None

    def push(self) -> None:
        k = self.head % len(self.bufs)
        self._settle(k)
        self.pending[k] = self.s.download(self.dev, into=self.bufs[k])
        self.head += 1

    def latest(self) -> float:
        k = (self.head - 1) % len(self.bufs)
        self._settle(k)
        return float(self.bufs[k].read()[0])

    def peek(self) -> float:
        k = (self.head - 1) % len(self.bufs)
        if self.pending[k] is not None:
            return -1.0
        return float(self.bufs[k].read()[0])

    def refill(self, value: float) -> None:
        k = self.head % len(self.bufs)
        t = self.pending[k]
        if t is not None:  # where it is None the element was never moved
            self.bufs[k] = t.wait()
        with self.bufs[k].write() as a:
            a[:] = value
        self.pending[k] = self.s.upload(self.bufs[k], to=self.dev)
        self.head += 1

    def close(self) -> None:
        for k in range(len(self.bufs)):
            self._settle(k)
        self.s.close()


class Batcher:
    """Fills every slot, then drains them all: each fill() moves a fresh slot."""

    def __init__(self, depth: int) -> None:
        self.s = nx.stream()
        self.dev = nx.device_array(8, np.float32)
        self.bufs = [nx.pinned_array(8, np.float32) for _ in range(depth)]
        self.pending: list[nx.Transfer[Host] | None] = [None] * depth
        self.n = 0

    def fill(self, value: float) -> None:
        k = self.n
        with self.bufs[k].write() as a:
            a[:] = value
        self.pending[k] = self.s.upload(self.bufs[k], to=self.dev)
        self.n += 1

    def drain(self) -> float:
        total = 0.0
        for k in range(self.n):
            t = self.pending[k]
            if t is not None:
                self.bufs[k] = t.wait()
                self.pending[k] = None
            total += float(self.bufs[k].read()[0])
        self.n = 0
        return total


class ShapeCache:
    """A dict keyed by size: stage() reuses the buffer of a size only after settle()."""

    def __init__(self) -> None:
        self.s = nx.stream()
        self.host: dict[int, Host] = {}
        self.dev: dict[int, nx.DeviceArray[nx.Owned, np.float32]] = {}
        self.pending: dict[int, nx.Transfer[Host]] = {}

    def stage(self, data: NDArray[np.float32]) -> None:
        n = data.size
        if n not in self.host:
            self.host[n] = nx.pinned_array(n, np.float32)
            self.dev[n] = nx.device_array(n, np.float32)
        with self.host[n].write() as a:
            a[:] = data
        self.pending[n] = self.s.upload(self.host[n], to=self.dev[n])

    def settle(self) -> None:
        for n, t in self.pending.items():
            self.host[n] = t.wait()
        self.pending.clear()


def ring_shapes() -> None:
    ring = Ring(3)
    for _ in range(4):
        ring.push()
        print(ring.latest(), ring.peek())
        ring.refill(1.0)
    ring.close()
    print(ring.latest(), ring.bufs[0].read()[0])


def batches() -> None:
    b = Batcher(3)
    for v in (1.0, 2.0, 3.0):
        b.fill(v)
    print(b.drain())
    b.fill(4.0)
    print(b.drain(), b.bufs[0].read()[0])
    b.s.close()


def cache() -> None:
    c = ShapeCache()
    c.stage(np.ones(8, dtype=np.float32))
    c.stage(np.ones(16, dtype=np.float32))
    c.settle()
    c.stage(np.ones(8, dtype=np.float32))
    c.settle()
    c.s.close()


if __name__ == "__main__":
    ring_shapes()
    batches()
    cache()
