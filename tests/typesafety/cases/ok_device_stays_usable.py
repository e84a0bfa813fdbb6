# The destination device array is not moved: stream order protects it.
# RUN: ok
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
dev2 = nx.device_array(8, np.float32)
up = s.upload(host, to=dev)
s.copy(dev, to=dev2).wait()
out = nx.pinned_array(8, np.float32)
down = s.download(dev, into=out)
host = up.wait()
out = down.wait()
