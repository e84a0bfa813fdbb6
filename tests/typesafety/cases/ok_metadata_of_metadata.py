# Metadata of a moved handle, indexed or read further, touches no memory.
# RUN: ok
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(64, np.float32)
dev = nx.device_array(64, np.float32)
up = s.upload(host, to=dev)
n = host.shape[0]
k = host.dtype.itemsize
print(n, k, host.label)
host = up.wait()
m = nx.mapped_array(8, np.float32)
mp = s.map(m)
print(m.shape[0], m.nbytes)
m = mp.wait()
s.close()
