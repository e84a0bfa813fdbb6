# nx.join([a, b]) consumes every listed part.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

a, b = nx.split(nx.pinned_array(8, np.float32), 2)
whole = nx.join([a, b])
whole.read()
b.read()  # E: use-after-transfer "b" "join()"
