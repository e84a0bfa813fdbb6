# A helper's read guarded by a test that does not read the object's other fields is a
# use at the call: a flag of the caller (`debug`), another object's state, or the
# buffer itself (`slot.host.size`, metadata, says nothing about the transfer).
# RUN: raises UseAfterTransferError via-call
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


def start(slot: Slot, s: nx.Stream[nx.Owned]) -> None:
    slot.up = s.upload(slot.host, to=slot.dev)
    slot.busy = True


def finish(slot: Slot) -> None:
    if slot.up is not None:
        slot.host = slot.up.wait()
        slot.up = None
        slot.busy = False


def trace(slot: Slot, debug: bool) -> None:
    if debug:
        print(slot.host.read()[0])


def sized(slot: Slot) -> float:
    return float(slot.host.read()[0]) if slot.host.size > 0 else 0.0


def other(slot: Slot, ref: Slot) -> float:
    return -1.0 if ref.busy else float(slot.host.read()[0])


def main() -> None:
    s = nx.stream()
    ref = Slot(nx.pinned_array(4, np.float32), nx.device_array(4, np.float32))
    slot = Slot(nx.pinned_array(4, np.float32), nx.device_array(4, np.float32))
    start(slot, s)
    try:
        other(slot, ref)  # E: use-after-transfer "slot.host" "other()"
    finally:
        finish(slot)
    start(slot, s)
    try:
        sized(slot)  # E: use-after-transfer "slot.host" "sized()"
    finally:
        finish(slot)
    start(slot, s)
    trace(slot, True)  # E: use-after-transfer "slot.host" "trace()"
    finish(slot)
    s.close()


main()
