# Different literal indices are different paths.
# RUN: ok
import numpy as np

import numbaxfer as nx

s = nx.stream()
bufs = [nx.pinned_array(8, np.float32) for _ in range(2)]
dev = nx.device_array(8, np.float32)
up = s.upload(bufs[0], to=dev)
bufs[1].read()
bufs[0] = up.wait()
bufs[0].read()
