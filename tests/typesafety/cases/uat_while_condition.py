# A use in a loop condition after a move in the body.
import numpy as np

import numbaxfer as nx


def f() -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    pending = []
    while host.read()[0] < 3:  # E: use-after-transfer "may be used"
        pending.append(s.upload(host, to=dev))  # E: use-after-transfer "may be used"
    for t in pending:
        t.wait()
