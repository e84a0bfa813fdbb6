# An object handed out by a method (or a function) whose take-back runs only where the
# transfer is done(): on the other path its buffer is still moved, and the caller's use
# of the field is reported ("may be used"); the fix names the field holding the
# transfer. (No RUN header: on the simulator every copy is done at once.)
from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 4


@dataclass
class Slot:
    host: Host
    dev: Dev
    pending: nx.Transfer[Host] | None = None


class Pool:
    def __init__(self) -> None:
        self.free: deque[Slot] = deque()

    def acquire(self) -> Slot:
        slot = self.free.popleft()
        if slot.pending is not None and slot.pending.done():
            slot.host = slot.pending.wait()
            slot.pending = None
        return slot


def poll(q: deque[Slot]) -> Slot:
    slot = q.popleft()
    if slot.pending is not None:
        if slot.pending.done():
            slot.host = slot.pending.wait()
            slot.pending = None
    return slot


def main(pool: Pool, q: deque[Slot]) -> None:
    slot = pool.acquire()
    slot.host.read()  # E: use-after-transfer "slot.host" "may be used" "Pool.acquire()" "slot.host = slot.pending.wait()"
    other = poll(q)
    with other.host.write() as a:  # E: use-after-transfer "other.host" "may be used" "poll()"
        a[:] = 1.0
