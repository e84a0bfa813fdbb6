# RUN: warns ResourceWarning anywhere
# A helper returns a pair of transfers; the caller unpacks them and completes only one.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


def fetch_pair(s: nx.Stream[nx.Owned], a: Dev, b: Dev) -> tuple[nx.Transfer[Host], nx.Transfer[Host]]:
    ta = s.download(a, into=nx.pinned_array(4, np.float32))
    tb = s.download(b, into=nx.pinned_array(4, np.float32))
    return ta, tb


def means(s: nx.Stream[nx.Owned], a: Dev, b: Dev) -> float:
    first, _second = fetch_pair(s, a, b)  # E: unfinished-transfer "_second" "never completed"
    return float(first.wait().read().mean())


s = nx.stream()
print(means(s, nx.device_array(4, np.float32), nx.device_array(4, np.float32)))
s.close()
