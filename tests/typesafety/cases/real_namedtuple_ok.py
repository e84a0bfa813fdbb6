# NamedTuple slots: Slot(host, dev) is launched into InFlight(dev, transfer) and landed
# back into a new Slot; the old tuples are rebound, never read after the move. Correct.
# RUN: ok
from __future__ import annotations

from typing import NamedTuple

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


class Slot(NamedTuple):
    host: Host
    dev: Dev


class InFlight(NamedTuple):
    dev: Dev
    up: nx.Transfer[Host]


def launch(slot: Slot, s: nx.Stream[nx.Owned]) -> InFlight:
    return InFlight(slot.dev, s.upload(slot.host, to=slot.dev))


def land(flight: InFlight) -> Slot:
    return Slot(flight.up.wait(), flight.dev)


def main() -> float:
    s = nx.stream()
    slots = [
        Slot(nx.pinned_array(16, np.float32), nx.device_array(16, np.float32)) for _ in range(3)
    ]
    for rnd in range(2):
        for slot in slots:
            with slot.host.write() as a:
                a[:] = rnd
        flights = [launch(slot, s) for slot in slots]
        slots = [land(f) for f in flights]
    one = slots[0]
    fl = launch(one, s)
    one = land(fl)
    total = float(one.host.read().sum()) + sum(float(x.host.read().sum()) for x in slots[1:])
    s.close()
    return total


main()
