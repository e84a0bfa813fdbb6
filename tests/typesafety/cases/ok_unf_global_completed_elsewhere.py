# A transfer stored in a module global by one function and completed by another.
# RUN: ok
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
s = nx.stream()
dev = nx.device_array(8, np.float32)
pending: nx.Transfer[Host] | None = None


def start(buf: nx.Consumed[Host]) -> None:
    global pending
    pending = s.upload(buf, to=dev)


def finish() -> Host:
    global pending
    assert pending is not None
    out = pending.wait()
    pending = None
    return out


start(nx.pinned_array(8, np.float32))
host = finish()
host.read()
s.close()
