# RUN: raises UseAfterTransferError
# XFAIL: miss (line 60): harvest(slot) waits slot.transfer without clearing it; drain() waits it again through the loop variable over the list of slots; a completion through a dataclass field of list elements, in another function, is not followed
# Planted bug: harvest() waits the slot's upload but forgets to clear slot.transfer, so drain() waits the same, already completed, transfer again.
"""Upload workers described by dataclass slots: each slot owns a staging buffer, a device
buffer and the upload in flight; a reducer kernel folds every upload into a total."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def add_into(src: Any, acc: Any) -> None:
    i = cuda.grid(1)
    if i < src.size:
        acc[i] += src[i]


@dataclass
class Slot:
    name: str
    buf: Host | None
    dev: Dev
    transfer: nx.Transfer[Host] | None = None
    uploads: int = 0
    history: list[float] = field(default_factory=list)


def make_slot(name: str, n: int) -> Slot:
    return Slot(name, nx.pinned_array(n, np.float32), nx.device_array(n, np.float32))


def dispatch(s: nx.Stream[nx.Owned], slot: Slot, value: float, acc: Dev) -> None:
    buf = slot.buf
    assert buf is not None, f"{slot.name} is busy"
    slot.buf = None
    with buf.write() as a:
        a[:] = value
    slot.transfer = s.upload(buf, to=slot.dev)
    s.launch(add_into, 1, slot.dev.size, slot.dev, acc)
    slot.uploads += 1
    slot.history.append(value)


def harvest(slot: Slot) -> None:
    if slot.transfer is not None:
        slot.buf = slot.transfer.wait()


def drain(slots: list[Slot]) -> None:
    for slot in slots:
        if slot.transfer is not None:
            slot.buf = slot.transfer.wait()  # E: transfer-completed-twice
            slot.transfer = None


def main() -> None:
    n = 16
    s = nx.stream()
    acc = nx.device_array(n, np.float32)
    s.upload_staged(np.zeros(n, np.float32), to=acc)
    slots = [make_slot(f"w{i}", n) for i in range(2)]
    for step in range(5):
        slot = slots[step % 2]
        harvest(slot)
        dispatch(s, slot, float(step + 1), acc)
    last = slots[4 % 2]
    harvest(last)
    assert last.buf is not None
    print("last staged value", float(last.buf.read()[0]))
    drain(slots)
    out = nx.pinned_array(n, np.float32)
    out = s.download(acc, into=out).wait()
    s.close()
    assert float(out.read()[0]) == 15.0, out.read()[0]
    print("slots:", [(sl.name, sl.uploads) for sl in slots])


if __name__ == "__main__":
    main()
