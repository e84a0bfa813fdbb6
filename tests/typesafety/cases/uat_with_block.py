# A move inside a with-block, used after it.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
with s.lend() as ls:
    up = ls.upload(host, to=dev)
host.read()  # E: use-after-transfer "is used" "host = up.wait()"
host = up.wait()
