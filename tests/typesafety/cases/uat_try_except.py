# The handler may run after the move.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
try:
    up = s.upload(host, to=dev)
    raise RuntimeError("kernel failed")
except RuntimeError:
    print(host.read())  # E: use-after-transfer "may be used"
