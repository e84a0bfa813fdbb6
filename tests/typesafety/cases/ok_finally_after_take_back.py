# RUN: ok
# `try: ... host = down.wait() ... finally: host.free()`: the take-back wait() fails
# only on a device error or an interrupt (and then the transfer is pending again), so
# the finally is not shown a path where the wait itself raised. A statement that can
# raise between the download and its wait is such a path (uat_finally_between.py).
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]


def check(x: int) -> None:
    if x < 0:
        raise ValueError(x)


def mean_of(s: nx.Stream[nx.Lent], d: Dev, x: int) -> float:
    scratch = nx.pinned_array(8, np.float32)
    try:
        check(x)
        down = s.download(d, into=scratch)
        scratch = down.wait()
        return float(scratch.read().mean())
    finally:
        scratch.free()


def fetch_into(s: nx.Stream[nx.Lent], d: Dev) -> float:
    scratch = nx.pinned_array(8, np.float32)
    total = 0.0
    try:
        down = s.download(d, into=scratch)
        scratch = down.wait()
        total = float(scratch.read().sum())
    finally:
        scratch.free()
    return total


s = nx.stream()
dev = nx.device_array(8, np.float32)
s.upload(nx.pinned_copy(np.ones(8, np.float32)), to=dev).wait().free()
print(mean_of(s, dev, 1), fetch_into(s, dev))
try:
    mean_of(s, dev, -1)
except ValueError:
    pass
s.close()
