# finally runs after the move on every path.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx


def f() -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    try:
        up = s.upload(host, to=dev)
    finally:
        host.read()  # E: use-after-transfer "may be used"
    host = up.wait()


f()
