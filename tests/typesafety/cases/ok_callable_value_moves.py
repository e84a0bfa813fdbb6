# RUN: ok
# Calls through callable values typed without nx.Consumed, used correctly: the buffer is
# taken back from each transfer before it is used again. A callable whose parameters
# include two of the handle class its transfer gives back (which one it moves is not
# said) and one that returns no transfer move nothing as far as the checker knows.
from __future__ import annotations

from collections.abc import Callable
from functools import partial

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
Sender = Callable[[Host], nx.Transfer[Host]]
Copier = Callable[[Host, Host], nx.Transfer[Host]]
Meter = Callable[[Host], float]


def send_all(send: Sender, bufs: list[Host]) -> list[Host]:
    out: list[Host] = []
    for buf in bufs:
        up = send(buf)
        buf = up.wait()
        out.append(buf)
    return out


def copy_into(copy: Copier, src: Host, dst: Host) -> float:
    t = copy(src, dst)
    dst = t.wait()
    total = float(src.read().sum()) + float(dst.read().sum())
    dst.free()
    return total


def level(meter: Meter, buf: Host) -> float:
    first = meter(buf)
    return first + meter(buf)


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    send: Sender = partial(s.upload, to=dev)
    bufs = send_all(send, [nx.pinned_array(8, np.float32) for _ in range(2)])

    def copier(src: Host, dst: Host) -> nx.Transfer[Host]:
        with dst.write() as d:
            d[:] = src.read()
        return s.upload(dst, to=dev)

    assert isinstance(copy_into(copier, bufs[0], nx.pinned_array(8, np.float32)), float)
    assert level(lambda b: float(b.read().size), bufs[1]) == 16.0
    for b in bufs:
        b.free()
    dev.free()
    s.close()


main()
