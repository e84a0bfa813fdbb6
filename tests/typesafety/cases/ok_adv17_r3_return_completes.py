# Rule 3, correct: a handler of a named exception ending with return, where the return
# statement itself completes the pending transfer (return down.wait(), or hands it to a
# helper of the program that completes it).
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


def fetch_raw(s: nx.Stream[nx.Owned], d: Dev, bad: bool) -> Host:
    down = s.download(d, into=nx.pinned_array(8, np.float32))
    try:
        verify(bad)
    except CorruptPacket:
        return down.wait()  # the raw buffer, unchecked
    host = down.wait()
    with host.write() as w:
        w[:] = 0.0
    return host


def decode(s: nx.Stream[nx.Owned], d: Dev, bad: bool) -> None:
    down = s.download(d, into=nx.pinned_array(8, np.float32))
    try:
        verify(bad)
    except CorruptPacket:
        return discard(down)
    down.wait().free()


fetch_raw(nx.stream(), nx.device_array(8, np.float32), True).free()
fetch_raw(nx.stream(), nx.device_array(8, np.float32), False).free()
decode(nx.stream(), nx.device_array(8, np.float32), True)
