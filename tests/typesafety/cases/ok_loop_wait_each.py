# Move and take back in the same iteration.
# RUN: ok
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
i = 0
while i < 3:
    with host.write() as a:
        a[:] = i
    up = s.upload(host, to=dev)
    host = up.wait()
    i += 1
host.read()
