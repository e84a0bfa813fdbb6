# Frontier: a non-literal index (same index variable, not rebound).
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx


def f(i: int) -> None:
    s = nx.stream()
    bufs = [nx.pinned_array(8, np.float32) for _ in range(2)]
    dev = nx.device_array(8, np.float32)
    up = s.upload(bufs[i], to=dev)
    bufs[i].read()  # E: use-after-transfer "bufs[i]"
    bufs[i] = up.wait()


f(1)
