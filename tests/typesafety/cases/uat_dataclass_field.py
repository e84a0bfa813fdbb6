# A dataclass field moved through the path slot.host; the handle it was built from
# (h) is the same object: a use of either is reported until the field is rebound.
# RUN: raises UseAfterTransferError
from dataclasses import dataclass

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@dataclass
class Slot:
    host: Host
    dev: Dev


def main() -> None:
    s = nx.stream()
    h = nx.pinned_array(8, np.float32)
    slot = Slot(host=h, dev=nx.device_array(8, np.float32))
    up = s.upload(slot.host, to=slot.dev)
    h.read()  # E: use-after-transfer "\"h\" (the same object as \"slot.host\") is used" "\"slot.host = up.wait()\""
    slot.host.read()  # E: use-after-transfer "\"slot.host\" is used"
    slot.host = up.wait()
    slot.host.read()


main()
