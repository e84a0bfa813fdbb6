# A move on one arm of an if/elif/else chain.
import numpy as np

import numbaxfer as nx


def f(mode: int) -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    if mode == 0:
        pass
    elif mode == 1:
        up = s.upload(host, to=dev)
        up.wait()
    else:
        host = nx.pinned_array(8, np.float32)
    host.read()  # E: use-after-transfer "may be used"
