# Stream.copy returns Transfer[None]: completing it is optional.
# RUN: ok
import numpy as np

import numbaxfer as nx

s = nx.stream()
a = nx.device_array(8, np.float32)
b = nx.device_array(8, np.float32)
s.copy(a, to=b)
c = s.copy(b, to=a)
s.synchronize()
