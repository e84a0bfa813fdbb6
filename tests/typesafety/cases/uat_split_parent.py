# The whole array is moved into the split until nx.join gives it back.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

host = nx.pinned_array(8, np.float32)
a, b = nx.split(host, 2)
host.read()  # E: use-after-transfer "host" "split()"
