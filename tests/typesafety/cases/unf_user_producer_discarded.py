# A user function returning a transfer: discarding its result is reported too.
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
s = nx.stream()
dev = nx.device_array(8, np.float32)


def start(buf: nx.Consumed[Host]) -> nx.Transfer[Host]:
    return s.upload(buf, to=dev)


host = nx.pinned_array(8, np.float32)
start(host)  # E: unfinished-transfer "start()" "t = start(...)"
