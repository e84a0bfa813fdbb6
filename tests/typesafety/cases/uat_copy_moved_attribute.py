# A moved buffer copied into an attribute, then read through it: the read is the use.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx


class Holder:
    def __init__(self, buf: nx.PinnedArray[nx.Owned, np.float32]) -> None:
        self.buf = buf


s = nx.stream()
dev = nx.device_array(8, np.float32)
host = nx.pinned_array(8, np.float32)
up = s.upload(host, to=dev)
box = Holder(nx.pinned_array(8, np.float32))
box.buf = host  # the store only renames
box.buf.read()  # E: use-after-transfer "box.buf" "is used"
host = up.wait()
