# Each iteration drops the previous iteration's transfer.
# RUN: warns ResourceWarning
import numpy as np

import numbaxfer as nx

s = nx.stream()
dev = nx.device_array(8, np.float32)
for i in range(2):
    host = nx.pinned_array(8, np.float32)
    up = s.upload(host, to=dev)  # E: unfinished-transfer "may be dropped here"
up.wait()
