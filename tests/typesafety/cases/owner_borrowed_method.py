# RUN: raises BorrowError via-call
# Inside "with self.host.lend()", a call of a method whose summary moves self.host (or
# of a function moving a field of its argument) moves the lent owner: owner-borrowed at
# the call.
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Prefetcher:
    def __init__(self) -> None:
        self.stream = nx.stream()
        self.host = nx.pinned_array(8, np.float32)
        self.dev = nx.device_array(8, np.float32)
        self.pending: nx.Transfer[Host] | None = None

    def _stage(self) -> None:
        with self.host.write() as a:
            a[:] = 1.0
        self.pending = self.stream.upload(self.host, to=self.dev)

    def step(self) -> float:
        if self.pending is not None:
            self.host = self.pending.wait()
            self.pending = None
        with self.host.lend() as staged:
            first = float(staged.read()[0])
            self._stage()  # E: owner-borrowed "\"self.host\" is moved into Stream.upload() by Prefetcher._stage(), called here, while it is lent"
        return first

    def close(self) -> None:
        if self.pending is not None:
            self.host = self.pending.wait()
            self.pending = None
        self.stream.close()


@dataclass
class Slot:
    host: Host
    transfer: nx.Transfer[Host] | None = None


def send(slot: Slot, s: nx.Stream[nx.Owned], dev: nx.DeviceArray[nx.Owned, np.float32]) -> None:
    slot.transfer = s.upload(slot.host, to=dev)


def inspect(slot: Slot) -> None:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    with slot.host.lend() as view:
        print(view.read()[0])
        send(slot, s, dev)  # E: owner-borrowed "by send(), called here"


if __name__ == "__main__":
    p = Prefetcher()
    p.step()
