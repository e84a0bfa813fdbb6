# Uses inside the block are fine; so is rebinding after it.
# RUN: ok
import numpy as np

import numbaxfer as nx

host = nx.pinned_array(8, np.float32)
with host.lend() as view:
    print(view.read()[0], view.shape)
    with view.lend() as again:
        again.read()
view = host
view.read()
