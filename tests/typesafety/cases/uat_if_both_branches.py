# Moved on both branches: "is used", both moves named.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx


def stage(buf: nx.Consumed[nx.PinnedArray[nx.Owned, np.float32]]) -> None:
    s = nx.stream()
    up = s.upload(buf, to=nx.device_array(8, np.float32))
    up.wait()


def f(c: bool) -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    if c:
        t = s.upload(host, to=dev)
        t.wait()
    else:
        stage(host)
    host.read()  # E: use-after-transfer "is used" "lines 19 and 22"


f(False)
