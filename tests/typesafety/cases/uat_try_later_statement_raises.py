# The move happened when a LATER statement of the try raises: the handler may not use it.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
s = nx.stream()
try:
    up = s.upload(host, to=dev)
    raise RuntimeError("after the move")
except RuntimeError:
    host.read()  # E: use-after-transfer "host"
