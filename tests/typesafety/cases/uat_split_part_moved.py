# Moving one part moves it, not its sibling.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

s = nx.stream()
dev = nx.device_array(4, np.float32)
a, b = nx.split(nx.pinned_array(8, np.float32), 2)
up = s.upload(a, to=dev)  # E: unfinished-transfer
b.read()
a.read()  # E: use-after-transfer "a" "a = up.wait()"
