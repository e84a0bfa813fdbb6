# break and continue carry the moved state out of and around the loop.
import numpy as np

import numbaxfer as nx


def f(n: int) -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    for i in range(n):
        if i == 3:
            up = s.upload(host, to=dev)  # E: use-after-transfer "may be used" "earlier loop iteration"
            up.wait()
            break
        if i == 1:
            up2 = s.upload(host, to=dev)  # E: use-after-transfer "may be used"
            up2.wait()
            continue
    host.read()  # E: use-after-transfer "may be used"
