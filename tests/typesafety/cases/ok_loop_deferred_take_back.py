# A deferred take-back at the top of a loop: the transfer started in the previous
# iteration is completed (rebinding the buffer) before the buffer is used again.
# RUN: ok
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def f() -> None:
    s = nx.stream()
    buf = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    pending: nx.Transfer[Host] | None = None
    for i in range(3):
        if pending is not None:
            buf = pending.wait()
        with buf.write() as a:
            a[:] = i
        pending = s.upload(buf, to=dev)
    if pending is not None:
        buf = pending.wait()
    buf.read()
    s.close()


f()
