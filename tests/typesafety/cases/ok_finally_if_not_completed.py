# `if not t.completed: host = t.wait()` in a finally completes the transfer on every path.
# RUN: ok
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
t = s.upload(host, to=dev)
try:
    pass
finally:
    if not t.completed:
        host = t.wait()
host.read()
s.close()
