# wait() inside a loop on a transfer started before it.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
up = s.upload(host, to=dev)  # E: unfinished-transfer "may be left unfinished"
for _ in range(2):
    host = up.wait()  # E: transfer-completed-twice "may be completed twice"
