# An nx.pinned() block ending while a transfer that took its handle is unfinished: its
# exit raises UnfinishedTransferError (and keeps the memory pinned until the copy ends).
# RUN: raises UnfinishedTransferError
import numpy as np

import numbaxfer as nx

s = nx.stream()
dev = nx.device_array(1024, np.float32)
a = np.ones(1024, np.float32)
with nx.pinned(a) as h:  # E: unfinished-transfer "Transfer \"up\" (started at line 12 by Stream.upload() with \"h\") is still unfinished when this block ends (line 13)" "\"h = up.wait()\""
    up = s.upload(h, to=dev)
    print(h.shape)
h = up.wait()
s.close()
