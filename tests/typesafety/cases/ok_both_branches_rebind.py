# Every path takes the buffer back.
# RUN: ok
import numpy as np

import numbaxfer as nx


def f(c: bool) -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    up = s.upload(host, to=dev)
    if c:
        host = up.wait()
    else:
        s.synchronize()
        host = up.wait()
    host.read()


f(True)
f(False)
