# A ring of k slots kept by an object; each step waits for the slot's previous
# transfer before reusing it. Indices are local names (j): what a method leaves at
# self.slots[j] means nothing to its callers, so nothing is carried across calls.
# RUN: ok
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Ring:
    def __init__(self, k: int) -> None:
        self.k = k
        self.s = nx.stream()
        self.dev = nx.device_array(8, np.float32)
        self.slots = [nx.pinned_array(8, np.float32) for _ in range(k)]
        self.pending: list[nx.Transfer[Host] | None] = [None] * k

    def step(self, i: int) -> None:
        j = i % self.k
        t = self.pending[j]
        if t is not None:
            self.slots[j] = t.wait()
            self.pending[j] = None
        with self.slots[j].write() as a:
            a[:] = float(i)
        self.pending[j] = self.s.upload(self.slots[j], to=self.dev)

    def drain(self) -> None:
        for j in range(self.k):
            t = self.pending[j]
            if t is not None:
                self.slots[j] = t.wait()
                self.pending[j] = None


ring = Ring(3)
for i in range(7):
    ring.step(i)
ring.drain()
