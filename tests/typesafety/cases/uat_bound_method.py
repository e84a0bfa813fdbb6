# Frontier: taking a bound method after a possible move.
import numpy as np

import numbaxfer as nx


def f(c: bool) -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    if c:
        up = s.upload(host, to=dev)
        up.wait()
    w = host.write  # E: use-after-transfer "may be used"
    with w() as a:
        a[:] = 0
