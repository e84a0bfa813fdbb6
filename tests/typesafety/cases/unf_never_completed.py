# Bound and never used again.
# RUN: warns ResourceWarning anywhere
import numpy as np

import numbaxfer as nx


def f() -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    up = s.upload(host, to=dev)  # E: unfinished-transfer "\"up\"" "is never completed" "host = up.wait()"


f()
