# A device array may be moved by a user function too.
import numpy as np

import numbaxfer as nx

DevArr = nx.DeviceArray[nx.Owned, np.float32]
owned: list[DevArr] = []


def adopt(d: nx.Consumed[DevArr]) -> None:
    owned.append(d)


dev = nx.device_array(8, np.float32)
adopt(dev)
with dev.lend() as v:  # E: use-after-transfer "adopt()"
    pass
