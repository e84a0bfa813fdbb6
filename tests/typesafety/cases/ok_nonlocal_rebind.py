# A nested function that takes the buffer back through `nonlocal`: calling it rebinds it.
# RUN: ok
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

    finish()
    host.read()
    s.close()


f()
