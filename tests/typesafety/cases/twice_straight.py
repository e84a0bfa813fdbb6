# A second wait() on the same transfer.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
up = s.upload(host, to=dev)
host = up.wait()
again = up.wait()  # E: transfer-completed-twice "\"up\" is completed twice" "line 11"
