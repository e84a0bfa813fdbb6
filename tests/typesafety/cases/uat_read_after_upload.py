# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
up = s.upload(host, to=dev)
print(host.read())  # E: use-after-transfer "is used after it was moved into Stream.upload() at line 9"
host = up.wait()
