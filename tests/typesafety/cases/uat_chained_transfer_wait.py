# A transfer handed on to a chained one cannot be waited: the chained one gives the
# buffer back.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

s = nx.stream()
dev = nx.device_array(8, np.float32)
host = nx.pinned_array(8, np.float32)
up = s.upload(host, to=dev)
down = s.download(dev, into=up)
if up.done():
    host = up.wait()  # E: use-after-transfer "up" "is used"
host = down.wait()
