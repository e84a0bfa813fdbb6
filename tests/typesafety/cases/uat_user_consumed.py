# A user function that takes ownership declares it with nx.Consumed.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
s = nx.stream()
dev = nx.device_array(8, np.float32)
pending: list[nx.Transfer[Host]] = []


def stage(buf: nx.Consumed[Host]) -> None:
    pending.append(s.upload(buf, to=dev))


host = nx.pinned_array(8, np.float32)
stage(host)
host.read()  # E: use-after-transfer "moved into stage() at line 18" "rebind"
