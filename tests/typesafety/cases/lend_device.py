# A lent device array used after its block.
# RUN: raises BorrowError
import numpy as np

import numbaxfer as nx

s = nx.stream()
dev = nx.device_array(8, np.float32)
out = nx.pinned_array(8, np.float32)
with dev.lend() as src:
    pass
down = s.download(src, into=out)  # E: lend-escape
out = down.wait()
