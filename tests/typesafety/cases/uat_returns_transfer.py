# A user function that consumes and returns the transfer: the fix names it.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
s = nx.stream()
dev = nx.device_array(8, np.float32)


def start(buf: nx.Consumed[Host]) -> nx.Transfer[Host]:
    return s.upload(buf, to=dev)


host = nx.pinned_array(8, np.float32)
t = start(host)
host.read()  # E: use-after-transfer "start()" "host = t.wait()"
host = t.wait()
