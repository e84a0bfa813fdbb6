# Lends inside helper functions: each lent handle is used inside its with-block, and
# only values computed from it (a float, a numpy copy) are returned. Correct.
# RUN: ok
from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def mean_of(host: Host) -> float:
    with host.lend() as view:
        return float(view.read().mean())


def snapshot(host: Host) -> NDArray[np.float32]:
    with host.lend() as view:
        copy: NDArray[np.float32] = view.read().copy()
    return copy


def describe(host: Host) -> str:
    with host.lend() as view:
        shape = view.shape
    return f"{host.label}: {shape}"


def main() -> float:
    host = nx.pinned_array(32, np.float32)
    with host.write() as a:
        a[:] = 3.0
    m = mean_of(host)
    snap = snapshot(host)
    with host.write() as a:  # the lends have ended: the owner may write again
        a[:] = 0.0
    describe(host)
    return m + float(snap.sum())


main()
