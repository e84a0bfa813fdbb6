# A reducer over a variable number of host buffers: an ExitStack lends every buffer
# for the reduction (read-only views, one with-block for all), then the buffers are
# owned again and the largest one is uploaded.
# RUN: ok
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


def reduce_all(bufs: list[Host]) -> tuple[float, int]:
    with contextlib.ExitStack() as stack:
        views = [stack.enter_context(b.lend()) for b in bufs]
        total = sum(float(v.read().sum()) for v in views)
        biggest = max(range(len(views)), key=lambda i: views[i].size)
    return total, biggest


def main() -> None:
    s = nx.stream()
    bufs = [make(4, 1.0), make(8, 2.0), make(2, 3.0)]
    total, biggest = reduce_all(bufs)
    dev = nx.device_array(bufs[biggest].shape, np.float32)
    big = bufs.pop(biggest)
    big = s.upload(big, to=dev).wait()
    assert total == 26.0 and big.size == 8
    print("total", total, "uploaded", big.size)
    s.close()


main()
