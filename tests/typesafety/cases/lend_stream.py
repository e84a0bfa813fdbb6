# A lent stream used after its block.
# RUN: raises BorrowError
import numpy as np

import numbaxfer as nx

s = nx.stream()
a = nx.device_array(8, np.float32)
b = nx.device_array(8, np.float32)
with s.lend() as ls:
    ls.copy(a, to=b).wait()
ls.copy(b, to=a).wait()  # E: lend-escape "\"ls\""
