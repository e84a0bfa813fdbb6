# RUN: ok
# A helper returns a pair of transfers (and a buffer with a transfer): unpacking the
# result gives each transfer a name, and each is completed.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


def fetch_pair(s: nx.Stream[nx.Owned], a: Dev, b: Dev) -> tuple[nx.Transfer[Host], nx.Transfer[Host]]:
    ta = s.download(a, into=nx.pinned_array(4, np.float32))
    tb = s.download(b, into=nx.pinned_array(4, np.float32))
    return ta, tb


def begin(s: nx.Stream[nx.Owned], dev: Dev) -> tuple[Host, nx.Transfer[Host]]:
    up = s.upload(nx.pinned_copy(np.ones(4, np.float32)), to=dev)
    return nx.pinned_array(4, np.float32), up


s = nx.stream()
a, b = nx.device_array(4, np.float32), nx.device_array(4, np.float32)
first, second = fetch_pair(s, a, b)
x = first.wait()
y = second.wait()
result, pending = begin(s, a)
src = pending.wait()
both = fetch_pair(s, a, b)  # kept whole: not followed (silence)
print(x.shape, y.shape, result.shape, src.shape, both[0].wait().shape, both[1].wait().shape)
s.close()
