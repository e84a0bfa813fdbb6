# except* handlers see the state of the try body too (here, where int() raises between
# the upload and its wait; a failing take-back wait() itself is not such a path).
import numpy as np

import numbaxfer as nx


def f() -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    try:
        up = s.upload(host, to=dev)
        int("not a number")
        host = up.wait()
    except* ValueError:
        host.read()  # E: use-after-transfer "may be used"
