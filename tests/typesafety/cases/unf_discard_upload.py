# A discarded transfer: nothing can complete it.
# RUN: warns ResourceWarning
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
s.upload(host, to=dev)  # E: unfinished-transfer "discarded" "t = s.upload(...)" "host = t.wait()"
