# Frontier (loop pitfall): a fresh buffer at the top of every iteration.
# RUN: ok
import numpy as np

import numbaxfer as nx

s = nx.stream()
dev = nx.device_array(8, np.float32)
for i in range(3):
    buf = nx.pinned_array(8, np.float32)
    with buf.write() as a:
        a[:] = i
    up = s.upload(buf, to=dev)
    buf = up.wait()
