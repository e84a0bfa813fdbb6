# A nested function that completes the transfer: it escapes, not reported.
# RUN: ok
import numpy as np

import numbaxfer as nx


def f() -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    up = s.upload(host, to=dev)

    def finish() -> None:
        up.wait()

    finish()


f()
