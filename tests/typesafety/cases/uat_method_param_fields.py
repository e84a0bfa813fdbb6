# RUN: raises UseAfterTransferError via-call
# What a method does to the fields of a parameter other than self (b.host moved, its
# transfer kept in b.transfer) is applied at its calls, like a plain function's.
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@dataclass
class Batch:
    host: Host
    transfer: nx.Transfer[Host] | None = None


class Pipeline:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.dev = nx.device_array(8, np.float32)

    def upload(self, b: Batch) -> None:
        b.transfer = self.s.upload(b.host, to=self.dev)

    def audit(self, b: Batch) -> float:
        return float(b.host.read().sum())

    def finish(self, b: Batch) -> None:
        assert b.transfer is not None
        b.host = b.transfer.wait()
        b.transfer = None

    def run(self, b: Batch) -> float:
        self.upload(b)
        total = self.audit(b)  # E: use-after-transfer "\"b.host\" (read by \"Pipeline.audit()\", called here) is used after it was moved into Stream.upload() at line 27 in Pipeline.upload()" "b.host = b.transfer.wait()"
        self.finish(b)
        return total


def caller() -> None:
    p = Pipeline()
    b = Batch(nx.pinned_array(8, np.float32))
    p.upload(b)
    print(b.host.read())  # E: use-after-transfer "\"b.host\" is used after it was moved into Stream.upload() at line 27 in Pipeline.upload()"
    p.finish(b)


def by_keyword() -> None:
    p = Pipeline()
    b = Batch(nx.pinned_array(8, np.float32))
    p.upload(b=b)
    p.audit(b=b)  # E: use-after-transfer "Pipeline.audit()"
    p.finish(b)


if __name__ == "__main__":
    Pipeline().run(Batch(nx.pinned_array(8, np.float32)))
