# Transfers kept in a list, tuple or dict display as the last statement of an nx.pinned
# block: nothing completes them before the block ends, so its exit raises
# UnfinishedTransferError (each transfer reported at the block, naming the list).
# RUN: raises UnfinishedTransferError
from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]


def both(a: NDArray[np.float32], b: NDArray[np.float32], d: Dev, e: Dev) -> float:
    s = nx.stream()
    with nx.pinned(a, b) as (ha, hb):  # E: unfinished-transfer "ups" # E: unfinished-transfer "ups"
        ups = [s.upload(ha, to=d), s.upload(hb, to=e)]
    for up in ups:
        up.wait()
    return float(a.sum())


def pair(a: NDArray[np.float32], b: NDArray[np.float32], d: Dev, e: Dev) -> None:
    s = nx.stream()
    with nx.pinned(a, b) as (ha, hb):  # E: unfinished-transfer "ups" # E: unfinished-transfer "ups"
        ups = (s.upload(ha, to=d), s.upload(hb, to=e))
    ups[0].wait()
    ups[1].wait()


def named(a: NDArray[np.float32], b: NDArray[np.float32], d: Dev, e: Dev) -> None:
    s = nx.stream()
    with nx.pinned(a, b) as (ha, hb):  # E: unfinished-transfer "ups" # E: unfinished-transfer "ups"
        ups = {"a": s.upload(ha, to=d), "b": s.upload(hb, to=e)}
    for up in ups.values():
        up.wait()


x = np.ones(8, np.float32)
both(x, x.copy(), nx.device_array(8, np.float32), nx.device_array(8, np.float32))
