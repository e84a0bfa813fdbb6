# A ring of k upload slots, self.slots[i % k]: before a slot is refilled, the transfer
# that last used it is waited and the slot rebound. Correct.
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class UploadRing:
    def __init__(self, k: int, n: int) -> None:
        self.k = k
        self.s = nx.stream()
        self.slots: list[Host] = [nx.pinned_array(n, np.float32) for _ in range(k)]
        self.devs = [nx.device_array(n, np.float32) for _ in range(k)]
        self.pending: list[nx.Transfer[Host] | None] = [None] * k

    def push(self, i: int, value: float) -> None:
        j = i % self.k
        t = self.pending[j]
        if t is not None:
            self.slots[j] = t.wait()
            self.pending[j] = None
        with self.slots[j].write() as a:
            a[:] = value
        self.pending[j] = self.s.upload(self.slots[j], to=self.devs[j])

    def drain(self) -> float:
        total = 0.0
        for j in range(self.k):
            t = self.pending[j]
            if t is not None:
                self.slots[j] = t.wait()
                self.pending[j] = None
            total += float(self.slots[j].read()[0])
        return total

    def close(self) -> None:
        self.drain()
        self.s.close()


def main() -> float:
    ring = UploadRing(3, 32)
    for i in range(7):
        ring.push(i, float(i))
    total = ring.drain()
    ring.close()
    return total


main()
