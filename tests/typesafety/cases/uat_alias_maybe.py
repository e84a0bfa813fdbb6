# An alias made on one path only.
import numpy as np

import numbaxfer as nx


def f(c: bool) -> None:
    s = nx.stream()
    a = nx.pinned_array(8, np.float32)
    b = nx.pinned_array(8, np.float32)
    if c:
        b = a
    dev = nx.device_array(8, np.float32)
    up = s.upload(a, to=dev)
    b.read()  # E: use-after-transfer "may be used"
    a = up.wait()
