# An early return that skips the wait.
import numpy as np

import numbaxfer as nx


def f(bail: bool) -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    up = s.upload(host, to=dev)  # E: unfinished-transfer "may be left unfinished"
    if bail:
        return
    host = up.wait()
