# Several context managers in one with statement.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

s = nx.stream()
a = nx.pinned_array(8, np.float32)
b = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
up = s.upload(b, to=dev)
with a.lend() as va, b.lend() as vb:  # E: use-after-transfer "\"b\""
    pass
b = up.wait()
