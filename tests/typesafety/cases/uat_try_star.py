# except* handlers see the state of the try body too.
import numpy as np

import numbaxfer as nx


def f() -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    try:
        up = s.upload(host, to=dev)
        host = up.wait()
    except* ValueError:
        host.read()  # E: use-after-transfer "may be used"
