# Reading the argument of the consuming call itself is not a use after the move.
# RUN: ok
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
print(host.read()[0])
up = s.upload(host, to=dev)
host = up.wait()
