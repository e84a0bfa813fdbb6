# Nested helper functions that return transfers: stage() fills a fresh buffer and returns
# its upload, collect() launches and returns the download, finish() waits a download,
# sums it and keeps the buffer for reuse. BUG (left over from before finish() existed):
# the loop still waits the download itself after handing it to finish() (which owns it).
# RUN: raises UseAfterTransferError
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N = 8


@cuda.jit
def cube(a: Any) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] * a[i] * a[i]


def process(batches: list[NDArray[np.float32]]) -> list[float]:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    spare: list[Host] = []

    def stage(values: NDArray[np.float32]) -> nx.Transfer[Host]:
        buf = spare.pop() if spare else nx.pinned_array(N, np.float32)
        with buf.write() as a:
            a[:] = values
        return s.upload(buf, to=dev)

    def collect(into: nx.Consumed[Host]) -> nx.Transfer[Host]:
        s.launch(cube, 1, N, dev)
        return s.download(dev, into=into)

    def finish(t: nx.Consumed[nx.Transfer[Host]]) -> float:
        buf = t.wait()
        total = float(buf.read().sum())
        spare.append(buf)
        return total

    totals = []
    for values in batches:
        up = stage(values)
        buf = up.wait()
        down = collect(buf)
        totals.append(finish(down))
        buf = down.wait()  # E: use-after-transfer "down" "finish()"
    s.close()
    return totals


def main() -> None:
    batches = [np.full(N, float(k), dtype=np.float32) for k in range(1, 4)]
    assert process(batches) == [8.0 * k**3 for k in range(1, 4)]


main()
