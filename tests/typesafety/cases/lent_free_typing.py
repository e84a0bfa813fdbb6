# free() is Owned-only.
# RUN: raises BorrowError
import numpy as np

import numbaxfer as nx

host = nx.pinned_array(8, np.float32)
with host.lend() as view:
    view.free()  # E: misc "Invalid self argument"
