# RUN: ok
# The owner is passed to a helper that writes it only after its lend block; inside the
# block, helpers only read it.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def scale(buf: Host, k: float) -> None:
    with buf.write() as a:
        a[:] *= k


def peak(buf: Host) -> float:
    return float(buf.read().max())


host = nx.pinned_copy(np.arange(4, dtype=np.float32))
with host.lend() as view:
    print(peak(host), view.read()[0])
scale(host, 2.0)
print(peak(host))
