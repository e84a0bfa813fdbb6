# Rule 5, correct: a subclass inheriting __init__ (which keeps the view) overrides the
# method so it no longer reads the view; a holder whose read is switched off by its
# own flag before its buffer moves; a name rebound to a fresh object.
# (from the adversarial review of session 17's rules)
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Lent = nx.PinnedArray[nx.Lent, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


class Stats:
    def __init__(self, view: Lent) -> None:
        self.view = view
        self.cached = 0.0

    def peak(self) -> float:
        return float(self.view.read().max())


class Snapshot(Stats):
    def peak(self) -> float:
        return self.cached


class Holder:
    def __init__(self, host: Host) -> None:
        self.host = host
        self.live = True

    def first(self) -> float:
        if not self.live:
            return 0.0
        return float(self.host.read()[0])


def snapshot(buf: Host) -> float:
    with buf.lend() as view:
        st = Snapshot(view)
        st.cached = float(view.read().max())
    return st.peak()


def paused(s: nx.Stream[nx.Owned], dev: Dev) -> float:
    host = nx.pinned_array(8, np.float32)
    h = Holder(host)
    h.live = False
    up = s.upload(host, to=dev)
    v = h.first()
    host = up.wait()
    return v


def rebuilt(buf: Host, spare: Host) -> float:
    with buf.lend() as view:
        st = Stats(view)
        a = st.peak()
    st = Stats(spare)
    return a + st.peak()


pinned = nx.pinned_array(8, np.float32)
snapshot(pinned)
paused(nx.stream(), nx.device_array(8, np.float32))
rebuilt(pinned, nx.pinned_array(8, np.float32))
