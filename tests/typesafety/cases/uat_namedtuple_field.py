# A NamedTuple field (built positionally) moved: the field, and the handle it was built
# from, are used after the move. _replace() makes a new tuple: the take-back.
# RUN: raises UseAfterTransferError
from typing import NamedTuple

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


class Slot(NamedTuple):
    dev: Dev
    host: Host


def main() -> None:
    s = nx.stream()
    h = nx.pinned_array(8, np.float32)
    slot = Slot(nx.device_array(8, np.float32), h)
    up = s.upload(slot.host, to=slot.dev)
    with h.write() as a:  # E: use-after-transfer "\"h\" (the same object as \"slot.host\") is used"
        a[:] = 0
    slot = slot._replace(host=up.wait())
    slot.host.read()


main()
