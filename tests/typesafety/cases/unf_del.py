# Deleting the only reference drops the transfer.
# RUN: warns ResourceWarning
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
up = s.upload(host, to=dev)
del up  # E: unfinished-transfer "is dropped here"
