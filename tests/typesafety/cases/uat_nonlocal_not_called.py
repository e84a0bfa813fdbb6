# A nested function that would take the buffer back, defined but not called before the use.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx


def f() -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    up = s.upload(host, to=dev)

    def finish() -> None:
        nonlocal host
        host = up.wait()

    host.read()  # E: use-after-transfer "is used"
    finish()


f()
