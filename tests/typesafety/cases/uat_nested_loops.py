# Moves in an inner loop, use in the outer loop.
import numpy as np

import numbaxfer as nx


def f() -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    for _ in range(2):
        host.read()  # E: use-after-transfer "may be used"
        for _ in range(2):
            t = s.upload(host, to=dev)  # E: use-after-transfer "may be used"
            t.wait()
