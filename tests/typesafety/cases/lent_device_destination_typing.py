# A lent device array cannot be a copy destination.
import numpy as np

import numbaxfer as nx

s = nx.stream()
a = nx.device_array(8, np.float32)
b = nx.device_array(8, np.float32)
with b.lend() as lb:
    s.copy(a, to=lb)  # E: arg-type
