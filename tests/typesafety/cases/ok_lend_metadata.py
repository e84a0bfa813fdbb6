# Metadata of an expired lent handle is still readable.
# RUN: ok
import numpy as np

import numbaxfer as nx

host = nx.pinned_array(8, np.float32)
with host.lend() as view:
    pass
print(view.shape, view.label)
