# Rule 3, correct: the handler returns, and the finally clause completes the transfer
# on every way out of the try (normal, return from the handler).
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


def decode(s: nx.Stream[nx.Owned], d: Dev, bad: bool, sink: list[Host]) -> bool:
    down = s.download(d, into=nx.pinned_array(8, np.float32))
    try:
        verify(bad)
    except CorruptPacket:
        return False
    finally:
        sink.append(down.wait())
    return True


def probe(s: nx.Stream[nx.Owned], d: Dev, bad: bool) -> float | None:
    host = nx.pinned_array(8, np.float32)
    up = s.upload(host, to=d)
    try:
        try:
            verify(bad)
        except CorruptPacket:
            return None
    finally:
        host = up.wait()
    return float(host.read()[0])


stream = nx.stream()
dev = nx.device_array(8, np.float32)
kept: list[Host] = []
decode(stream, dev, True, kept)
decode(stream, dev, False, kept)
probe(stream, dev, True)
probe(stream, dev, False)
for h in kept:
    h.free()
