# Writing through a Lent handle fails by typing alone (self-typed write()).
# RUN: raises BorrowError
import numpy as np

import numbaxfer as nx

host = nx.pinned_array(8, np.float32)
with host.lend() as view:
    with view.write() as a:  # E: misc "Invalid self argument"
        a[:] = 0
