# A wait skipped only by an exception is not reported as unfinished.
# RUN: ok
import numpy as np

import numbaxfer as nx


def f() -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    try:
        up = s.upload(host, to=dev)
        host = up.wait()
    except nx.OwnershipError:
        raise
    host.read()


f()
