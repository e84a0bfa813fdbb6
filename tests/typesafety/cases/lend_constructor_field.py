# A class whose __init__ stores a parameter as it is (self.view = view) keeps the
# argument itself: after st = Stats(view), st.view is view. Used after the lend block
# ended (by a method reading it), it is a lent handle used past its block; moved with
# host, a method reading it reads a moved buffer.
# RUN: raises BorrowError via-call
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Lent = nx.PinnedArray[nx.Lent, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


class Stats:
    def __init__(self, view: Lent, scale: float = 1.0) -> None:
        self.view = view
        self.scale = scale

    def peak(self) -> float:
        return float(self.view.read().max()) * self.scale


class Holder:
    def __init__(self, host: Host) -> None:
        self.host = host

    def first(self) -> float:
        return float(self.host.read()[0])


def lazy(buf: Host) -> float:
    with buf.lend() as view:
        st = Stats(view, scale=2.0)
    return st.peak()  # E: lend-escape "st.view"


def moved(s: nx.Stream[nx.Owned], dev: Dev) -> float:
    host = nx.pinned_array(8, np.float32)
    h = Holder(host)
    up = s.upload(host, to=dev)
    first = h.first()  # E: use-after-transfer "h.host"
    host = up.wait()
    return first


lazy(nx.pinned_array(8, np.float32))
