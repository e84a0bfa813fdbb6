# Rule 3, correct: the download is completed inside the try before anything there may
# raise the named exception (the check runs on the returned host), or is started only
# after the check; the handler's return drops nothing.
# (from the adversarial review of session 17's rules)
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]
Host = nx.PinnedArray[nx.Owned, np.float32]


class CorruptPacket(Exception):
    pass


def check(host: Host, bad: bool) -> None:
    if bad or not np.isfinite(host.read()).all():
        raise CorruptPacket("checksum")


def verify(bad: bool) -> None:
    if bad:
        raise CorruptPacket("header")


def decode(s: nx.Stream[nx.Owned], d: Dev, bad: bool) -> float | None:
    host = nx.pinned_array(8, np.float32)
    try:
        down = s.download(d, into=host)
        host = down.wait()
        check(host, bad)
    except CorruptPacket:
        host.free()
        return None
    out = float(host.read().sum())
    host.free()
    return out


def header_first(s: nx.Stream[nx.Owned], d: Dev, bad: bool) -> float | None:
    try:
        verify(bad)
        down = s.download(d, into=nx.pinned_array(8, np.float32))
        host = down.wait()
    except CorruptPacket:
        return None
    out = float(host.read().sum())
    host.free()
    return out


dev = nx.device_array(8, np.float32)
dev2 = nx.device_array(8, np.float32)
decode(nx.stream(), dev, True)
decode(nx.stream(), dev, False)
header_first(nx.stream(), dev2, True)
header_first(nx.stream(), dev2, False)
