# A discarded download.
# RUN: warns ResourceWarning
import numpy as np

import numbaxfer as nx


def f() -> None:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    out = nx.pinned_array(8, np.float32)
    s.download(dev, into=out)  # E: unfinished-transfer "discarded" "out = t.wait()"


f()
