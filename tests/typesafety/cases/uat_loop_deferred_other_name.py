# The deferred take-back completes the transfer into another name: the buffer itself
# stays moved, and `pending is None` proves nothing about it.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def f() -> None:
    s = nx.stream()
    buf = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    pending: nx.Transfer[Host] | None = None
    for i in range(3):
        if pending is not None:
            other = pending.wait()
            other.read()
            pending = None
        if pending is None:
            with buf.write() as a:  # E: use-after-transfer "may be used" "earlier loop iteration"
                a[:] = i
        pending = s.upload(buf, to=dev)  # E: use-after-transfer "may be used"
    # Non-relational: once the transfer went into "other", the analysis no longer knows
    # that "pending is None" here means the loop never ran.
    if pending is not None:
        buf = pending.wait()
    buf.read()  # E: use-after-transfer "may be used"


f()
