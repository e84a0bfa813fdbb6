# RUN: raises BorrowError via-call
# Inside the owner's lend block, the owner is passed to a helper that writes it (or
# frees it): the lend forbids both, wherever the call is made from.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def scale(buf: Host, k: float) -> None:
    with buf.write() as a:
        a[:] *= k


def peak(buf: Host) -> float:
    return float(buf.read().max())  # reads only: fine inside a lend


host = nx.pinned_copy(np.arange(4, dtype=np.float32))
with host.lend() as view:
    print(peak(host), view.read()[0])
    scale(host, 2.0)  # E: owner-borrowed "host.write()" "lent"
scale(host, 0.5)  # after the block: fine
