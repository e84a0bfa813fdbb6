# An alias of the lent handle escapes too.
# RUN: raises BorrowError
import numpy as np

import numbaxfer as nx

host = nx.pinned_array(8, np.float32)
with host.lend() as view:
    kept = view
kept.read()  # E: lend-escape "kept"
