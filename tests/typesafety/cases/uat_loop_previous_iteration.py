# Moved in a previous iteration of the loop.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
ups = []
for i in range(2):
    with host.write() as a:  # E: use-after-transfer "may be used" "earlier loop iteration"
        a[:] = i
    ups.append(s.upload(host, to=dev))  # E: use-after-transfer "may be used"
