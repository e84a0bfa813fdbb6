# The buffer stays moved through the chain until the download's wait() returns it.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
up = s.upload(host, to=dev)
down = s.download(dev, into=up)  # E: unfinished-transfer "host = down.wait()"
host.read()  # E: use-after-transfer "host"
