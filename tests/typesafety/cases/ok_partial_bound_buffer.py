# A partial holding the buffer: the buffer is usable until the partial is called, and
# again after its transfer is completed; rebinding the partial's name forgets it.
# RUN: ok
import functools

import numpy as np

import numbaxfer as nx

s = nx.stream()
dev = nx.device_array(8, np.float32)
host = nx.pinned_array(8, np.float32)
send = functools.partial(s.upload, host, to=dev)
with host.write() as a:
    a[:] = 3.0
t = send()
host = t.wait()
print(host.read()[0])
send = functools.partial(s.upload, host, to=dev)
t = send()
host = t.wait()
host.read()
s.close()
