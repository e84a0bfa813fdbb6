# A handle in a list display is the same object as the name it came from: moving the
# name moves bufs[0].
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
bufs = [host]
up = s.upload(host, to=dev)
bufs[0].read()  # E: use-after-transfer
host = up.wait()
