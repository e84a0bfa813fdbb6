# Rule 3, correct: the handler completes what is pending through the program's own
# code (a helper given the transfer, or a method of an object holding it) and returns.
# (from the adversarial review of session 17's rules)
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]
Host = nx.PinnedArray[nx.Owned, np.float32]


class CorruptPacket(Exception):
    pass


def verify(bad: bool) -> None:
    if bad:
        raise CorruptPacket("checksum")


def discard(t: nx.Transfer[Host]) -> None:
    t.wait().free()


class Reader:
    def __init__(self, s: nx.Stream[nx.Owned], d: Dev) -> None:
        self.s = s
        self.d = d
        self.inflight: nx.Transfer[Host] | None = None

    def abort(self) -> None:
        if self.inflight is not None:
            self.inflight.wait().free()
            self.inflight = None

    def read(self, bad: bool) -> float | None:
        down = self.s.download(self.d, into=nx.pinned_array(8, np.float32))
        self.inflight = down
        try:
            verify(bad)
        except CorruptPacket:
            self.abort()
            return None
        self.inflight = None
        host = down.wait()
        out = float(host.read()[0])
        host.free()
        return out


def decode(s: nx.Stream[nx.Owned], d: Dev, bad: bool) -> float | None:
    down = s.download(d, into=nx.pinned_array(8, np.float32))
    try:
        verify(bad)
    except CorruptPacket:
        discard(down)
        return None
    host = down.wait()
    return float(host.read()[0])


stream = nx.stream()
dev = nx.device_array(8, np.float32)
decode(stream, dev, True)
r = Reader(stream, dev)
r.read(True)
r.read(False)
