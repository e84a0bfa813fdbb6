# Results of functions that return one of their parameters, used correctly: inside the
# lend block, before the argument is moved, after the helper rebound its parameter (it
# returns another object), and from helpers returning values computed from a handle.
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
View = nx.PinnedArray[nx.Lent, np.float32]


def larger(a: View, b: View) -> View:
    return a if float(a.read()[0]) >= float(b.read()[0]) else b


def same(h: Host) -> Host:
    return h


def fresh(h: Host) -> Host:
    h = nx.pinned_copy(h.read())
    return h


def first_value(v: View) -> float:
    return float(v.read()[0])


def main() -> None:
    s = nx.stream()
    ha = nx.pinned_copy(np.full(4, 1.0, np.float32))
    hb = nx.pinned_copy(np.full(4, 2.0, np.float32))
    with ha.lend() as va, hb.lend() as vb:
        best = larger(va, vb)
        top = float(best.read()[0])
        value = first_value(va)
    assert (top, value) == (2.0, 1.0)
    dev = nx.device_array(4, np.float32)
    alias = same(ha)
    copy = fresh(ha)
    alias.read()
    up = s.upload(ha, to=dev)
    copy.read()
    ha = up.wait()
    alias = same(ha)
    alias.read()
    s.close()


main()
