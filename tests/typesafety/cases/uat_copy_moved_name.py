# A copy of a moved buffer's name carries the move: using the copy (or the old name
# after a swap) before the wait is a use after transfer.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

s = nx.stream()
dev = nx.device_array(8, np.float32)
front = nx.pinned_array(8, np.float32)
back = nx.pinned_array(8, np.float32)

down = s.download(dev, into=back)
front, back = back, front
print(front.read()[0])  # E: use-after-transfer "front" "is used"
front = down.wait()
