# XFAIL: bufs[i] moved, bufs[j] read with j == i: unknown indices are not compared
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx


def f(i: int, j: int) -> None:
    s = nx.stream()
    bufs = [nx.pinned_array(8, np.float32) for _ in range(2)]
    dev = nx.device_array(8, np.float32)
    up = s.upload(bufs[i], to=dev)
    bufs[j].read()  # E: use-after-transfer
    bufs[i] = up.wait()


f(0, 0)
