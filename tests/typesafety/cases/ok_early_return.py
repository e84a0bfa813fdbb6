# The path that moved returns early; the fall-through path never moved.
# RUN: ok
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def f(send: bool) -> Host:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    if send:
        up = s.upload(host, to=dev)
        return up.wait()
    host.read()
    return host


f(True)
f(False)
