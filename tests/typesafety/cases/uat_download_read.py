# A download destination is stale until the transfer completes.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

s = nx.stream()
dev = nx.device_array(8, np.float32)
out = nx.pinned_array(8, np.float32)
down = s.download(dev, into=out)
total = float(out.read().sum())  # E: use-after-transfer "out" "out = down.wait()"
out = down.wait()
