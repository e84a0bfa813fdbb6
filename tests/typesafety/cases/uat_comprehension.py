# A use inside a comprehension.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
up = s.upload(host, to=dev)
firsts = [float(host.read()[i]) for i in range(2)]  # E: use-after-transfer "is used"
host = up.wait()
