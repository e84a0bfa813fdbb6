# Uploading bufs[i] for each i: the index changes, nothing is reused.
# RUN: ok
import numpy as np

import numbaxfer as nx

s = nx.stream()
bufs = [nx.pinned_array(8, np.float32) for _ in range(3)]
devs = [nx.device_array(8, np.float32) for _ in range(3)]
ups = []
for i in range(3):
    ups.append(s.upload(bufs[i], to=devs[i]))
for i in range(3):
    bufs[i] = ups[i].wait()
