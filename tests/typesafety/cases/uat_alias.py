# Frontier: an alias made before the move.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

s = nx.stream()
a = nx.pinned_array(8, np.float32)
b = a
dev = nx.device_array(8, np.float32)
up = s.upload(a, to=dev)
b.read()  # E: use-after-transfer "\"b\" (the same object as \"a\")" "a = up.wait()"
a = up.wait()
