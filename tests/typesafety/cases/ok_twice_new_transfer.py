# Rebinding the transfer name between waits.
# RUN: ok
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
up = s.upload(host, to=dev)
host = up.wait()
up = s.upload(host, to=dev)
host = up.wait()
print(up.done(), up.completed)
