# The for target is rebound every iteration.
# RUN: ok
import numpy as np

import numbaxfer as nx

s = nx.stream()
bufs = [nx.pinned_array(8, np.float32) for _ in range(3)]
dev = nx.device_array(8, np.float32)
ups = []
for b in bufs:
    b.read()
    ups.append(s.upload(b, to=dev))
for t in ups:
    t.wait()
