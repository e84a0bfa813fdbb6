# Helpers and methods that read a buffer only where a field of the same object says it
# is not in flight: a conditional expression, an if/else, an early return, an assert,
# `and`, a method call on the object and a function given the object as the test. None
# of these reads is a use at the call made while the buffer is moved (silence: the
# object's own protocol is not followed, and a false report is worse than a miss).
# RUN: ok
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@dataclass
class Slot:
    host: Host
    dev: Dev
    busy: bool = False
    up: nx.Transfer[Host] | None = None

    def idle(self) -> bool:
        return not self.busy


def start(slot: Slot, s: nx.Stream[nx.Owned]) -> None:
    slot.up = s.upload(slot.host, to=slot.dev)
    slot.busy = True


def finish(slot: Slot) -> None:
    if slot.up is not None:
        slot.host = slot.up.wait()
        slot.up = None
        slot.busy = False


def is_busy(slot: Slot) -> bool:
    return slot.busy


def by_condexpr(slot: Slot) -> float:
    return -1.0 if slot.busy else float(slot.host.read()[0])


def by_if(slot: Slot) -> float:
    if slot.up is None:
        return float(slot.host.read()[0])
    else:
        return -1.0


def by_else(slot: Slot) -> float:
    if slot.busy:
        out = -1.0
    else:
        out = float(slot.host.read()[0])
    return out


def by_early_return(slot: Slot) -> float:
    if slot.busy:
        return -1.0
    return float(slot.host.read()[0])


def by_assert(slot: Slot) -> float:
    if slot.up is not None:
        return -1.0
    assert not slot.busy
    return float(slot.host.read()[0])


def by_and(slot: Slot) -> bool:
    return not slot.busy and bool(slot.host.read()[0] > 0)


def by_method(slot: Slot) -> float:
    return float(slot.host.read()[0]) if slot.idle() else -1.0


def by_function(slot: Slot) -> float:
    return -1.0 if is_busy(slot) else float(slot.host.read()[0])


class Stager:
    def __init__(self, n: int) -> None:
        self.s = nx.stream()
        self.dev = nx.device_array(n, np.float32)
        self.host = nx.pinned_copy(np.ones(n, np.float32))
        self.pending: nx.Transfer[Host] | None = None

    def send(self) -> None:
        self.pending = self.s.upload(self.host, to=self.dev)

    def settle(self) -> None:
        if self.pending is not None:
            self.host = self.pending.wait()
            self.pending = None

    def peek(self) -> float:
        if self.pending is not None:
            return -1.0
        return float(self.host.read()[0])


def main() -> None:
    s = nx.stream()
    slot = Slot(nx.pinned_copy(np.ones(4, np.float32)), nx.device_array(4, np.float32))
    start(slot, s)
    seen = [
        by_condexpr(slot),
        by_if(slot),
        by_else(slot),
        by_early_return(slot),
        by_assert(slot),
        float(by_and(slot)) - 1.0,
        by_method(slot),
        by_function(slot),
    ]
    finish(slot)
    assert seen == [-1.0] * 8, seen
    assert by_condexpr(slot) == 1.0 and by_early_return(slot) == 1.0
    st = Stager(4)
    st.send()
    assert st.peek() == -1.0
    st.settle()
    assert st.peek() == 1.0
    st.s.close()
    s.close()


main()
