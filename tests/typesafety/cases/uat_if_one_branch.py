# Moved on one branch only: "may be used".
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx


def f(early: bool) -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    up: nx.Transfer[nx.PinnedArray[nx.Owned, np.float32]] | None = None
    if early:
        up = s.upload(host, to=dev)
    print(host.read())  # E: use-after-transfer "may be used" "on some path"
    if up is not None:
        host = up.wait()


f(True)
