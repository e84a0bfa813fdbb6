# Transfers kept in a list display inside an nx.pinned block, completed before the
# block ends (a loop over them, or each one), or handed to code that may: silence.
# RUN: ok
from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]
Host = nx.PinnedArray[nx.Owned, np.float32]


def finish(ups: list[nx.Transfer[Host]]) -> None:
    for up in ups:
        up.wait()


def waited(a: NDArray[np.float32], b: NDArray[np.float32], d: Dev, e: Dev) -> None:
    s = nx.stream()
    with nx.pinned(a, b) as (ha, hb):
        ups = [s.upload(ha, to=d), s.upload(hb, to=e)]
        for up in ups:
            up.wait()


def each(a: NDArray[np.float32], b: NDArray[np.float32], d: Dev, e: Dev) -> None:
    s = nx.stream()
    with nx.pinned(a, b) as (ha, hb):
        ups = (s.upload(ha, to=d), s.upload(hb, to=e))
        ups[0].wait()
        ups[1].wait()


def handed(a: NDArray[np.float32], b: NDArray[np.float32], d: Dev, e: Dev) -> None:
    s = nx.stream()
    with nx.pinned(a, b) as (ha, hb):
        ups = [s.upload(ha, to=d), s.upload(hb, to=e)]
        finish(ups)


x = np.ones(8, np.float32)
dd, de = nx.device_array(8, np.float32), nx.device_array(8, np.float32)
waited(x, x.copy(), dd, de)
each(x, x.copy(), dd, de)
handed(x, x.copy(), dd, de)
