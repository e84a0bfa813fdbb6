# A dataclass field moved and taken back (slot.host = up.wait()); the field and the
# handle it was built from are usable again (the same object, at run time too).
# RUN: ok
from dataclasses import dataclass, replace

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
    slot = Slot(h, nx.device_array(8, np.float32))
    h.read()
    up = s.upload(slot.host, to=slot.dev)
    print(slot.dev.shape, h.shape)
    slot.host = up.wait()
    slot.host.read()
    other = replace(slot, host=nx.pinned_array(8, np.float32))
    up2 = s.upload(other.host, to=other.dev)
    slot.host.read()
    other.host = up2.wait()


main()
