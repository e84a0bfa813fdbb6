# Frontier: passing the moved handle to a parameter typed object.
# RUN: raises UseAfterTransferError via-call
import numpy as np

import numbaxfer as nx



def show(x: object) -> None:
    if isinstance(x, nx.PinnedArray):
        print(x.read())


s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
up = s.upload(host, to=dev)
show(host)  # E: use-after-transfer "is used"
host = up.wait()
