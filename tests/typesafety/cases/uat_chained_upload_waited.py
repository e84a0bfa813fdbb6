# A transfer chained into a download is consumed: waiting it is a use after transfer.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

s = nx.stream()
dev = nx.device_array(8, np.float32)
host = nx.pinned_array(8, np.float32)
up = s.upload(host, to=dev)
down = s.download(dev, into=up)  # E: unfinished-transfer "host = down.wait()"
up.wait()  # E: use-after-transfer "up" "host = down.wait()"
