# RUN: ok
# A method's summary for a parameter other than self: taken back by another method (or
# by the caller) before the read, no report.
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
        if b.transfer is not None:
            b.host = b.transfer.wait()
            b.transfer = None

    def describe(self, b: Batch) -> str:
        return "in flight" if b.transfer is not None else str(b.host.read()[0])

    def run(self, b: Batch) -> float:
        self.upload(b)
        print(self.describe(b), b.host.shape)
        self.finish(b)
        return self.audit(b)


def caller() -> None:
    p = Pipeline()
    a = Batch(nx.pinned_array(8, np.float32))
    b = Batch(nx.pinned_array(8, np.float32))
    p.upload(a)
    print(p.audit(b))  # another batch
    assert a.transfer is not None
    a.host = a.transfer.wait()
    a.transfer = None
    print(p.audit(a), p.run(b))
    p.s.close()


if __name__ == "__main__":
    caller()
