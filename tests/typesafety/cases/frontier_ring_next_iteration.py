# XFAIL: the classic ring bug (slot i % k reused k iterations later, before its wait) needs modular reasoning about i; the move is forgotten when i is rebound
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def main(n: int, k: int) -> None:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    slots = [nx.pinned_array(8, np.float32) for _ in range(k)]
    pending: list[nx.Transfer[Host]] = []
    for i in range(n):
        with slots[i % k].write() as a:  # E: use-after-transfer
            a[:] = float(i)
        pending.append(s.upload(slots[i % k], to=dev))
    for t in pending:
        t.wait()


main(4, 2)
