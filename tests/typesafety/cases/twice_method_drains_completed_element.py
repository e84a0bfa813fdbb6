# A batch keeps its downloads in a dict: collect() completes one of them and leaves it
# there (no pop), close() completes every transfer the dict holds. collect() then
# close() completes that transfer twice: reported at the close() call, naming both.
# RUN: raises UseAfterTransferError via-call
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
        if name not in self.done:
            self.done[name] = self.pending[name].wait()
        return float(self.done[name].read().sum())

    def close(self) -> dict[str, Img]:
        for name, down in self.pending.items():
            self.done[name] = down.wait()
        self.pending.clear()
        self.s.close()
        return self.done


batch = Batch()
batch.add("a", 8)
batch.add("b", 8)
batch.collect("b")
batch.close()  # E: transfer-completed-twice
