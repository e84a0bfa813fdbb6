# Lends passed to worker functions: two candidate device arrays are lent to a scoring
# worker (a reads-only nx.kernel on a lent stream), and their host copies are lent to a
# chooser that returns the better view. BUG: the view choose() returned is read after
# the lend block has ended.
# RUN: raises BorrowError
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

N = 8
LentHost = nx.PinnedArray[nx.Lent, np.float32]
LentDev = nx.DeviceArray[nx.Lent, np.float32]


@nx.kernel(reads=["src"], writes=["dst"])
@cuda.jit
def squares(src: Any, dst: Any) -> None:
    i = cuda.grid(1)
    if i < src.size:
        dst[i] = src[i] * src[i]


def score(ls: nx.Stream[nx.Lent], view: LentDev) -> float:
    """Sum of squares of a lent device array (reads it only)."""
    tmp = nx.device_array(N, np.float32)
    squares[1, N, ls](view, tmp)
    out = ls.download(tmp, into=nx.pinned_array(N, np.float32)).wait()
    return float(out.read().sum())


def choose(a: LentHost, b: LentHost, sa: float, sb: float) -> LentHost:
    return a if sa >= sb else b


def main() -> None:
    s = nx.stream()
    ha = nx.pinned_copy(np.full(N, 1.0, dtype=np.float32))
    hb = nx.pinned_copy(np.full(N, 3.0, dtype=np.float32))
    da, db = nx.device_array(N, np.float32), nx.device_array(N, np.float32)
    ha = s.upload(ha, to=da).wait()
    hb = s.upload(hb, to=db).wait()
    with s.lend() as ls, da.lend() as va, db.lend() as vb:
        sa, sb = score(ls, va), score(ls, vb)
    with ha.lend() as ca, hb.lend() as cb:
        best = choose(ca, cb, sa, sb)
    first = float(best.read()[0])  # E: lend-escape "best"
    s.close()
    assert (sa, sb, first) == (8.0, 72.0, 3.0), (sa, sb, first)


main()
