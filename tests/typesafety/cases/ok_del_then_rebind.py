# del + rebind clears the move.
# RUN: ok
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
up = s.upload(host, to=dev)
del host
host = nx.pinned_array(8, np.float32)
host.read()
up.wait()
