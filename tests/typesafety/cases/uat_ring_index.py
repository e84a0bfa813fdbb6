# A ring of k slots indexed by i % k: the slot just moved is used in the same iteration
# through the same index expression (i and k not rebound in between).
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def main(n: int, k: int) -> None:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    slots = [nx.pinned_array(8, np.float32) for _ in range(k)]
    for i in range(n):
        up = s.upload(slots[i % k], to=dev)
        with slots[i % k].write() as a:  # E: use-after-transfer "\"slots[i % k]\" is used" "\"slots[i % k] = up.wait()\""
            a[:] = float(i)
        slots[i % k] = up.wait()


main(4, 2)
