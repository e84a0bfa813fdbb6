# Objects built from a lent or moved handle, used correctly: inside the lend block; a
# class that keeps a copy, stores the parameter under a test, or calls a method of
# itself after storing it (which may rebind it): what it holds is not known (silence).
# RUN: ok
from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Lent = nx.PinnedArray[nx.Lent, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


class Stats:
    def __init__(self, view: Lent) -> None:
        self.view = view

    def peak(self) -> float:
        return float(self.view.read().max())


class Copying:
    def __init__(self, view: Lent) -> None:
        self.data: NDArray[np.float32] = view.read().copy()

    def peak(self) -> float:
        return float(self.data.max())


class Maybe:
    def __init__(self, host: Host, keep: bool) -> None:
        self.host: Host | None = None
        if keep:
            self.host = host

    def first(self) -> float:
        return float(self.host.read()[0]) if self.host is not None else 0.0


class Resetting:
    def __init__(self, host: Host) -> None:
        self.host = host
        self.reset()

    def reset(self) -> None:
        self.host = nx.pinned_array(8, np.float32)

    def first(self) -> float:
        return float(self.host.read()[0])


def inside(buf: Host) -> float:
    with buf.lend() as view:
        st = Stats(view)
        out = st.peak()
    return out


def copied(buf: Host) -> float:
    with buf.lend() as view:
        c = Copying(view)
    return c.peak()


def taken_back(s: nx.Stream[nx.Owned], dev: Dev) -> float:
    host = nx.pinned_array(8, np.float32)
    up = s.upload(host, to=dev)
    host = up.wait()
    h = Stats(host)  # an Owned handle where a Lent is expected is fine for reads
    return h.peak()


def reset(s: nx.Stream[nx.Owned], dev: Dev) -> float:
    host = nx.pinned_array(8, np.float32)
    r = Resetting(host)
    up = s.upload(host, to=dev)
    first = r.first()
    host = up.wait()
    return first


buf0 = nx.pinned_array(8, np.float32)
inside(buf0)
copied(buf0)
stream = nx.stream()
device = nx.device_array(8, np.float32)
taken_back(stream, device)
reset(stream, device)
m = Maybe(nx.pinned_array(8, np.float32), False)
m.first()
