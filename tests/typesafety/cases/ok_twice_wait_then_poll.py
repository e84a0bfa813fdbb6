# After wait(), done() and completed may still be read: neither completes again.
# RUN: ok
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
up = s.upload(host, to=dev)
host = up.wait()
assert up.done() and up.completed
t = s.copy(dev, to=nx.device_array(8, np.float32))
t.wait()
print(t.done(), up.label)
