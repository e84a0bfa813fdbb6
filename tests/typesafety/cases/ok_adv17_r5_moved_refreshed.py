# Rule 5, correct: a holder built from a host that is then moved into an upload; the
# holder is given the buffer wait() returns (method or store) before it is read; a
# method that does not read the field is fine meanwhile; another holder is unaffected.
# (from the adversarial review of session 17's rules)
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


class Holder:
    def __init__(self, host: Host, label: str = "h") -> None:
        self.host = host
        self.label = label
        self.reads = 0

    def reset(self, host: Host) -> None:
        self.host = host

    def name(self) -> str:
        return f"{self.label}#{self.reads}"

    def first(self) -> float:
        self.reads += 1
        return float(self.host.read()[0])


def refreshed(s: nx.Stream[nx.Owned], dev: Dev) -> float:
    host = nx.pinned_array(8, np.float32)
    h = Holder(host)
    up = s.upload(host, to=dev)
    tag = h.name()
    host = up.wait()
    h.reset(host)
    return h.first() + len(tag)


def stored(s: nx.Stream[nx.Owned], dev: Dev) -> float:
    host = nx.pinned_array(8, np.float32)
    h = Holder(host)
    up = s.upload(host, to=dev)
    h.host = up.wait()
    return h.first()


def other(s: nx.Stream[nx.Owned], dev: Dev) -> float:
    a = nx.pinned_array(8, np.float32)
    b = nx.pinned_array(8, np.float32)
    ha, hb = Holder(a, "a"), Holder(b, "b")
    up = s.upload(a, to=dev)
    v = hb.first()
    a = up.wait()
    ha.reset(a)
    return v + ha.first()


stream = nx.stream()
device = nx.device_array(8, np.float32)
refreshed(stream, device)
stored(stream, device)
other(stream, device)
