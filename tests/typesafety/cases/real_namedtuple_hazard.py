# NamedTuple slots: the caller reads slot.host after launch() moved it into the upload
# held by the InFlight tuple, before land() gave it back.
# XFAIL: miss: a NamedTuple field (slot.host) moved in another function (launch(slot, s)) and read by the caller
# RUN: raises UseAfterTransferError [via-call]
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
    slot = Slot(nx.pinned_array(16, np.float32), nx.device_array(16, np.float32))
    fl = launch(slot, s)
    first = float(slot.host.read()[0])  # E: use-after-transfer "slot.host"
    slot = land(fl)
    direct = InFlight(slot.dev, s.upload(slot.host, to=slot.dev))
    first += float(slot.host.read()[0])  # E: use-after-transfer "slot.host" "is used"
    slot = land(direct)
    s.close()
    return first


main()
