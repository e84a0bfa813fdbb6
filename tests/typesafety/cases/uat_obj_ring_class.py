# A ring method that touches the slot it has just uploaded (same index, not rebound).
# RUN: raises UseAfterTransferError via-call
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
        self.pending[i % self.k] = self.s.upload(self.slots[i % self.k], to=self.dev)
        with self.slots[i % self.k].write() as a:  # E: use-after-transfer "\"self.slots[i % self.k]\" is used"
            a[:] = float(i)


ring = Ring(3)
ring.step(0)
