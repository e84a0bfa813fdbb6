# Handlers that return after completing what is pending, catch-all handlers (an error
# path: leaks there are not reported), and a call handed the transfer that raises after
# completing it (``finish(up)``): silence.
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


def finish(t: nx.Transfer[Host], bad: bool) -> Host:
    host = t.wait()
    if bad:
        host.free()
        raise CorruptPacket("late")
    return host


def waits_first(s: nx.Stream[nx.Owned], d: Dev, bad: bool) -> float | None:
    host = nx.pinned_array(8, np.float32)
    down = s.download(d, into=host)
    try:
        verify(bad)
    except CorruptPacket:
        down.wait().free()
        return None
    host = down.wait()
    return float(host.read().sum())


def catch_all(s: nx.Stream[nx.Owned], d: Dev, bad: bool, errors: list[Exception]) -> None:
    host = nx.pinned_array(8, np.float32)
    down = s.download(d, into=host)
    try:
        verify(bad)
        host = down.wait()
    except Exception as e:  # an error path: the worker reports and stops
        errors.append(e)
        down.wait().free()
        return
    host.free()


def handed(s: nx.Stream[nx.Owned], d: Dev, rounds: int) -> int:
    done = 0
    for k in range(rounds):
        up = s.upload(nx.pinned_array(8, np.float32), to=d)
        try:
            host = finish(up, k % 2 == 1)
        except CorruptPacket:
            continue
        host.free()
        done += 1
    return done


def handed_return(s: nx.Stream[nx.Owned], d: Dev, bad: bool) -> float | None:
    up = s.upload(nx.pinned_array(8, np.float32), to=d)
    try:
        host = finish(up, bad)
    except CorruptPacket:
        return None
    total = float(host.read().sum())
    host.free()
    return total


stream = nx.stream()
dev = nx.device_array(8, np.float32)
waits_first(stream, dev, True)
waits_first(stream, dev, False)
catch_all(stream, dev, True, [])
handed(stream, dev, 4)
handed_return(stream, dev, True)
