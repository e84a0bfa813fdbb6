# An early return on the path that took the buffer back leaves the other path moved.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx


def f(fast: bool) -> float:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    up = s.upload(host, to=dev)  # E: unfinished-transfer "may be left unfinished"
    if fast:
        host = up.wait()
        return float(host.read()[0])
    return float(host.read()[0])  # E: use-after-transfer "is used"


f(False)
