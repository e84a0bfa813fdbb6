# Metadata of a moved handle touches no memory and may be read.
# RUN: ok
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
up = s.upload(host, to=dev)
print(host.shape, host.dtype, host.size, host.nbytes, host.label)
host = up.wait()
