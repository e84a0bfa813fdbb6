# A function (or method) that returns one of its parameters hands back the same object:
# the result of a call is the argument it returned, so a lent handle chosen by a helper
# inside its block is expired after it, and a name bound to `same(host)` is moved with
# `host`.
# RUN: raises BorrowError
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
View = nx.PinnedArray[nx.Lent, np.float32]


def larger(a: View, b: View) -> View:
    return a if float(a.read()[0]) >= float(b.read()[0]) else b


def same(h: Host) -> Host:
    return h


class Picker:
    def first(self, a: View, b: View) -> View:
        return a


def main() -> None:
    s = nx.stream()
    ha = nx.pinned_copy(np.full(4, 1.0, np.float32))
    hb = nx.pinned_copy(np.full(4, 2.0, np.float32))
    with ha.lend() as va, hb.lend() as vb:
        best = larger(va, vb)
        kept = Picker().first(va, vb)
    print(best.read()[0])  # E: lend-escape "best"
    print(kept.read()[0])  # E: lend-escape "kept"
    dev = nx.device_array(4, np.float32)
    alias = same(ha)
    up = s.upload(ha, to=dev)
    alias.read()  # E: use-after-transfer "alias"
    ha = up.wait()
    s.close()


main()
