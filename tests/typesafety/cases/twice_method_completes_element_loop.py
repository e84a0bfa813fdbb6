# The same batch drained by its caller, and by one of its own methods after a collect():
# a loop over every transfer of the dict completes the one collect() completed again.
# RUN: raises UseAfterTransferError
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Img = nx.PinnedArray[nx.Owned, np.float32]


class Batch:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.pending: dict[str, nx.Transfer[Img]] = {}
        self.done: dict[str, Img] = {}

    def add(self, name: str, n: int) -> None:
        dev = nx.device_array(n, np.float32)
        self.pending[name] = self.s.download(dev, into=nx.pinned_array(n, np.float32))

    def collect(self, name: str) -> float:
        self.done[name] = self.pending[name].wait()
        return float(self.done[name].read().sum())

    def first_then_rest(self, name: str) -> float:
        total = self.collect(name)
        for down in self.pending.values():
            total += float(down.wait().read().sum())  # E: transfer-completed-twice
        self.pending.clear()
        return total


def drain(batch: Batch) -> None:
    batch.collect("a")
    for name, down in batch.pending.items():
        batch.done[name] = down.wait()  # E: transfer-completed-twice
    batch.pending.clear()


batch = Batch()
batch.add("a", 8)
batch.add("b", 8)
drain(batch)
