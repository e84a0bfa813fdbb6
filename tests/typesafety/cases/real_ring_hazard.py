# A ring of k upload slots whose push() returns a checksum of the slot it has just
# moved into the upload: self.slots[i % self.k] is read while the copy may run.
# XFAIL: miss: a ring slot indexed by an expression (self.slots[i % self.k]) read right after it was moved in the same method: only name and literal indices are tracked
# RUN: raises UseAfterTransferError [via-call]
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

    def push(self, i: int, value: float) -> float:
        t = self.pending[i % self.k]
        if t is not None:
            self.slots[i % self.k] = t.wait()
            self.pending[i % self.k] = None
        with self.slots[i % self.k].write() as a:
            a[:] = value
        self.pending[i % self.k] = self.s.upload(self.slots[i % self.k], to=self.devs[i % self.k])
        head = self.slots[i % self.k].read()[0]  # E: use-after-transfer "self.slots[" "is used"
        return float(head)

    def drain(self) -> None:
        for j in range(self.k):
            t = self.pending[j]
            if t is not None:
                self.slots[j] = t.wait()
                self.pending[j] = None

    def close(self) -> None:
        self.drain()
        self.s.close()


def main() -> float:
    ring = UploadRing(3, 32)
    total = 0.0
    for i in range(7):
        total += ring.push(i, float(i))
    ring.close()
    return total


main()
