# A comprehension that moves the same buffer in every iteration.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
devs = [nx.device_array(8, np.float32) for _ in range(2)]
ups = [s.upload(host, to=d) for d in devs]  # E: use-after-transfer "may be used" "earlier loop iteration"
