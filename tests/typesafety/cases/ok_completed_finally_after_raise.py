# RUN: ok
# A take-back in a finally guarded by `completed`, after a try that may raise before its
# own wait: on the exception's path the transfer is still pending, and the guard sees it.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def fetch(s: nx.Stream[nx.Owned], dev: nx.DeviceArray[nx.Owned, np.float32], out: Host, fail: bool) -> float:
    down = s.download(dev, into=out)
    try:
        if fail:
            raise RuntimeError("gave up")
        out = down.wait()
        return float(out.read().size)
    finally:
        if not down.completed:
            out = down.wait()
        out.free()


s = nx.stream()
dev = nx.device_array(4, np.float32)
print(fetch(s, dev, nx.pinned_array(4, np.float32), False))
try:
    fetch(s, dev, nx.pinned_array(4, np.float32), True)
except RuntimeError:
    pass
s.close()
