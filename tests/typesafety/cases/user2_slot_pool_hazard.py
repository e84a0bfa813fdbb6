# An object pool of slots: each Slot (a small dataclass) holds a pinned buffer, its
# device array and the upload still using the buffer. acquire() hands out the oldest
# slot, release() puts it back with its transfer pending, drain() finishes them all.
# BUG: acquire() only takes the buffer back when the upload is already done(), and
# otherwise hands the slot out with slot.host still moved; the caller writes it.
# (No RUN header: on the simulator every copy is done at once, so the bad path is not taken.)
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8


@cuda.jit
def accumulate(src: Any, acc: Any) -> None:
    i = cuda.grid(1)
    if i < src.size:
        acc[i] += src[i]


@dataclass
class Slot:
    host: Host
    dev: Dev
    pending: nx.Transfer[Host] | None = None


class SlotPool:
    def __init__(self, count: int) -> None:
        self._free: deque[Slot] = deque(
            Slot(nx.pinned_array(N, np.float32), nx.device_array(N, np.float32)) for _ in range(count)
        )

    def acquire(self) -> Slot:
        slot = self._free.popleft()
        if slot.pending is not None and slot.pending.done():
            slot.host = slot.pending.wait()
            slot.pending = None
        return slot

    def release(self, slot: Slot) -> None:
        self._free.append(slot)

    def drain(self) -> None:
        for slot in self._free:
            if slot.pending is not None:
                slot.host = slot.pending.wait()
                slot.pending = None


def main(items: int = 6) -> None:
    s = nx.stream()
    acc = nx.device_array(N, np.float32)
    s.upload_staged(np.zeros(N, dtype=np.float32), to=acc).wait()
    pool = SlotPool(2)
    for i in range(items):
        slot = pool.acquire()
        with slot.host.write() as a:  # E: use-after-transfer "slot.host" "may be used"
            a[:] = float(i)
        slot.pending = s.upload(slot.host, to=slot.dev)  # E: use-after-transfer "slot.host" "may be used"
        s.launch(accumulate, 1, N, slot.dev, acc)
        pool.release(slot)
    pool.drain()
    out = s.download(acc, into=nx.pinned_array(N, np.float32)).wait()
    s.close()
    assert float(out.read()[0]) == float(sum(range(items))), out.read()


main()
