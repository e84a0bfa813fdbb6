# A Lent handle cannot be moved into a transfer.
# RUN: raises BorrowError
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
with host.lend() as view:
    up = s.upload(view, to=dev)  # E: arg-type
    view = up.wait()
