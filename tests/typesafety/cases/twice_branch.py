# Completed on one branch, then again after it.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx


def f(c: bool) -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    up = s.upload(host, to=dev)
    if c:
        host = up.wait()
    host = up.wait()  # E: transfer-completed-twice "may be completed twice"


f(True)
