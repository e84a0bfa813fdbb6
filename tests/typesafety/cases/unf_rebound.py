# Rebinding the name drops the first transfer.
# RUN: warns ResourceWarning
import numpy as np

import numbaxfer as nx

s = nx.stream()
a = nx.pinned_array(8, np.float32)
b = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
up = s.upload(a, to=dev)
up = s.upload(b, to=dev)  # E: unfinished-transfer "is dropped here" "a = up.wait()"
b = up.wait()
