# A transfer handed on (to a list) and then its name set to None: "pending is None"
# says nothing about the buffer, which stays moved.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def f() -> None:
    s = nx.stream()
    buf = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    pool: list[nx.Transfer[Host]] = []
    pending: nx.Transfer[Host] | None = None
    pending = s.upload(buf, to=dev)
    pool.append(pending)
    pending = None
    if pending is None:
        buf.read()  # E: use-after-transfer "is used"
    for t in pool:
        buf = t.wait()


f()
