# The chained download must still be completed.
# RUN: warns ResourceWarning anywhere
import numpy as np

import numbaxfer as nx


def leak() -> None:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    up = s.upload(nx.pinned_array(8, np.float32), to=dev)
    s.download(dev, into=up)  # E: unfinished-transfer


leak()
