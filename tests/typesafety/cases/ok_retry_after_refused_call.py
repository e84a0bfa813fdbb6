# A refused call moves nothing: the handler may retry with the same buffer.
# RUN: ok
import numpy as np

import numbaxfer as nx

host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
s = nx.stream()
s.close()
try:
    up = s.upload(host, to=dev)
except nx.StreamClosedError:
    s = nx.stream()
    up = s.upload(host, to=dev)
host = up.wait()
host.read()
s.close()
