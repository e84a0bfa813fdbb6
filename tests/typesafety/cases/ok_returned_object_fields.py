# Objects handed out by a method or a function that take their buffer back first: an
# unconditional wait where a transfer is pending, a caller that takes it back itself,
# reading only metadata of a field that may be moved, and a take-back guarded by a state
# flag of the object (another protocol: not followed, no report).
# RUN: ok
from __future__ import annotations

import enum
from collections import deque
from dataclasses import dataclass

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 4


class State(enum.Enum):
    IDLE = "idle"
    BUSY = "busy"


@dataclass
class Slot:
    host: Host
    dev: Dev
    pending: nx.Transfer[Host] | None = None
    state: State = State.IDLE


def new_slot() -> Slot:
    return Slot(nx.pinned_array(N, np.float32), nx.device_array(N, np.float32))


class Pool:
    def __init__(self) -> None:
        self.free: deque[Slot] = deque(new_slot() for _ in range(2))

    def acquire(self) -> Slot:
        slot = self.free.popleft()
        if slot.pending is not None:
            slot.host = slot.pending.wait()
            slot.pending = None
        return slot

    def acquire_raw(self) -> Slot:
        slot = self.free.popleft()
        if slot.pending is not None and slot.pending.done():
            slot.host = slot.pending.wait()
            slot.pending = None
        return slot

    def acquire_flagged(self) -> Slot:
        slot = self.free.popleft()
        if slot.state is State.BUSY and slot.pending is not None:
            slot.host = slot.pending.wait()
            slot.pending = None
            slot.state = State.IDLE
        return slot

    def release(self, slot: Slot) -> None:
        self.free.append(slot)


def ready(q: deque[Slot]) -> Slot:
    slot = q.popleft()
    if slot.pending is not None:
        slot.host = slot.pending.wait()
        slot.pending = None
    return slot


def main() -> None:
    s = nx.stream()
    pool = Pool()
    for i in range(4):
        slot = pool.acquire()
        with slot.host.write() as a:
            a[:] = float(i)
        slot.pending = s.upload(slot.host, to=slot.dev)
        slot.state = State.BUSY
        pool.release(slot)
    raw = pool.acquire_raw()
    print(raw.host.shape)
    if raw.pending is not None:
        raw.host = raw.pending.wait()
        raw.pending = None
    raw.host.read()
    flagged = pool.acquire_flagged()
    flagged.host.read()
    q = deque([new_slot()])
    ready(q).host.read()
    s.close()


main()
