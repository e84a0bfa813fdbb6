# A NamedTuple slot taken back with _replace(host=up.wait()): the new tuple's field is
# usable; its other fields are the old ones.
# RUN: ok
from typing import NamedTuple

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


class Slot(NamedTuple):
    host: Host
    dev: Dev


def main() -> None:
    s = nx.stream()
    slot = Slot(nx.pinned_array(8, np.float32), nx.device_array(8, np.float32))
    for _ in range(3):
        up = s.upload(slot.host, to=slot.dev)
        print(slot.dev.shape)
        slot = slot._replace(host=up.wait())
        slot.host.read()


main()
