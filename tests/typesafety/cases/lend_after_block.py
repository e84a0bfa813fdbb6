# A lent handle used after its with-block.
# RUN: raises BorrowError
import numpy as np

import numbaxfer as nx

host = nx.pinned_array(8, np.float32)
with host.lend() as view:
    print(view.read()[0])
print(view.read()[0])  # E: lend-escape "\"view\"" "lent at line 8" "use the owner \"host\""
