# Completed on one path only.
import numpy as np

import numbaxfer as nx


def f(c: bool) -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    up = s.upload(host, to=dev)  # E: unfinished-transfer "may be left unfinished on some path"
    if c:
        host = up.wait()
