# A sum reduction across several streams merged at the end: one pinned array is split
# into parts (no copy), each part goes to its own stream, where a kernel reduces it into
# a one-element device array that is downloaded into a pinned scalar. The host merges
# the partial sums. A `finally` completes whatever the happy path did not, so that an
# error in the merge leaves nothing in flight.
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def partial_sum(x: Any, out: Any) -> None:
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        cuda.atomic.add(out, 0, x[i])


def reduce_streams(data: NDArray[np.float32], k: int = 4) -> float:
    streams = [nx.stream() for _ in range(k)]
    host = nx.pinned_copy(data)
    dev = nx.device_array(data.size, np.float32)
    hparts = nx.split(host, k)
    dparts = nx.split(dev, k)
    sums = [nx.device_array(1, np.float32) for _ in range(k)]
    scalars: list[Host] = [nx.pinned_array(1, np.float32) for _ in range(k)]
    ups = [s.upload(h, to=d) for s, h, d in zip(streams, hparts, dparts)]
    for s, d, acc in zip(streams, dparts, sums):
        s.upload_staged(np.zeros(1, np.float32), to=acc)
        s.launch(partial_sum, 1, 32, d, acc)
    downs = [s.download(acc, into=h) for s, acc, h in zip(streams, sums, scalars)]
    try:
        hparts = [t.wait() for t in ups]
        scalars = [t.wait() for t in downs]
        total = sum(float(h.read()[0]) for h in scalars)
    finally:
        for t in ups + downs:
            if not t.completed:
                t.wait()
    host = nx.join(hparts)
    dev = nx.join(dparts)
    for s in streams:
        s.close()
    return total


if __name__ == "__main__":
    data = np.arange(256, dtype=np.float32)
    assert reduce_streams(data) == float(data.sum())
    print("reduce ok")
