# RUN: raises UseAfterTransferError via-call
# Rings on self across method calls: a method leaves *some* element of self.bufs moved,
# its transfer kept in the element of self.pending at the same (local) index. A method
# that then reads an element without taking it back is a use at its call ("may": which
# element is not known), also the moving method's own next call where it reads the
# element before it takes that element back.
import numpy as np

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
        return float(self.bufs[k].read()[0])  # reads the entry push() left in flight

    def refill(self, value: float) -> None:
        k = self.head % len(self.bufs)
        with self.bufs[k].write() as a:  # before the take-back below
            a[:] = value
        t = self.pending[k]
        if t is not None:
            self.bufs[k] = t.wait()
        self.pending[k] = self.s.upload(self.bufs[k], to=self.dev)
        self.head += 1

    def close(self) -> None:
        for k in range(len(self.bufs)):
            self._settle(k)
        self.s.close()


def newest() -> float:
    ring = Ring(3)
    ring.push()
    value = ring.latest()  # E: use-after-transfer "An element of \"ring.bufs\" (read by \"Ring.latest()\", called here) may be used after Ring.push() moved one of its elements into Stream.download() at line 31" "ring.pending"
    ring.close()
    return value


def read_in_loop() -> None:
    ring = Ring(2)
    for _ in range(4):
        ring.push()
        print(ring.bufs[0].read()[0])  # E: use-after-transfer "\"ring.bufs[0]\" (an element of \"ring.bufs\") may be used"
    ring.close()


def refill_twice() -> None:
    ring = Ring(2)
    for v in (1.0, 2.0, 3.0):
        ring.refill(v)  # E: use-after-transfer "(read by \"Ring.refill()\", called here)" "Ring.refill() moved one of its elements"
    ring.close()


def closed_then_read() -> None:
    ring = Ring(2)
    ring.push()
    ring.close()
    print(ring.latest())  # close() took every element back: no report here
    ring.push()  # E: use-after-transfer "Ring.push()" "closed at line 80"
    print(ring.latest())  # E: use-after-transfer "Ring.latest()"


if __name__ == "__main__":
    newest()
