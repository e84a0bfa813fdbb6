# XFAIL: miss: a lent view picked out of the ExitStack's list of lends by max(views, key=...) (line 29) is returned after the stack block ended (line 30); a lent handle escaping through a builtin call over a list of lends is not followed. No RUN header: the runtime raises BorrowError at the caller's read (line 37), not on the returning line
# A reducer over a variable number of host buffers: an ExitStack lends every buffer
# for the reduction (read-only views, one with-block for all), then the buffers are
# owned again and the largest one is uploaded. The bug: the reducer returns the
# largest lent view itself, for the caller to upload from, after the stack has ended
# every lend.
from __future__ import annotations

import contextlib

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def make(n: int, value: float) -> Host:
    buf = nx.pinned_array(n, np.float32)
    with buf.write() as a:
        a[:] = value
    return buf


def reduce_all(bufs: list[Host]) -> tuple[float, nx.PinnedArray[nx.Lent, np.float32]]:
    with contextlib.ExitStack() as stack:
        views = [stack.enter_context(b.lend()) for b in bufs]
        total = sum(float(v.read().sum()) for v in views)
        biggest = max(views, key=lambda v: v.size)
    return total, biggest  # E: lend-escape "biggest"


def main() -> None:
    s = nx.stream()
    bufs = [make(4, 1.0), make(8, 2.0), make(2, 3.0)]
    total, biggest = reduce_all(bufs)
    print("total", total, "largest first value", biggest.read()[0])
    s.close()


main()
