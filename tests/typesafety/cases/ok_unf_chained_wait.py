# Completing the transfer in the same expression.
# RUN: ok
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
host = s.upload(host, to=dev).wait()
host.read()
