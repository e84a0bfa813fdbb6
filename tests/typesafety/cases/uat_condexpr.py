# Frontier: a move inside a conditional expression.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx


def f(send: bool) -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    up = s.upload(host, to=dev) if send else None
    host.read()  # E: use-after-transfer "may be used"
    if up is not None:
        host = up.wait()


f(True)
