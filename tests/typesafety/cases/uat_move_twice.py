# Moving a moved buffer again is a use.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
dev2 = nx.device_array(8, np.float32)
up = s.upload(host, to=dev)
up2 = s.upload(host, to=dev2)  # E: use-after-transfer "is used"
host = up.wait()
host = up2.wait()
