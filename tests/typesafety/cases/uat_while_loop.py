# A while loop that moves without taking back.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
n = 0
pending = []
while n < 2:
    pending.append(s.upload(host, to=dev))  # E: use-after-transfer "may be used" "earlier loop iteration"
    n += 1
