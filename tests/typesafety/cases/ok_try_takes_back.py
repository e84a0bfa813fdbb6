# Every path through try/except/finally takes the buffer back.
# RUN: ok
import numpy as np

import numbaxfer as nx


def f() -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    up = s.upload(host, to=dev)
    try:
        s.synchronize()
    finally:
        host = up.wait()
    host.read()


f()
