# A ring of k slots: each slot's transfer is waited before the slot is reused; other
# index expressions ((i + 1) % k) are other slots as far as the checker knows.
# RUN: ok
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def main(n: int, k: int) -> None:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    slots = [nx.pinned_array(8, np.float32) for _ in range(k)]
    pending: list[nx.Transfer[Host] | None] = [None] * k
    for i in range(n):
        t = pending[i % k]
        if t is not None:
            slots[i % k] = t.wait()
            pending[i % k] = None
        with slots[i % k].write() as a:
            a[:] = float(i)
        pending[i % k] = s.upload(slots[i % k], to=dev)
        print(slots[(i + 1) % k].shape)
    for j in range(k):
        t = pending[j]
        if t is not None:
            slots[j] = t.wait()


main(5, 2)
