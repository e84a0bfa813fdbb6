# RUN: ok
# Chunks of one pinned output buffer are downloaded from per-chunk device arrays; every
# part's download is completed before nx.join puts the buffer back together.
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def scale(a: Any, factor: float) -> None:
    """``a *= factor`` (grid-stride loop)."""
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] *= factor


def gather(s: nx.Stream[nx.Lent], devs: list[Dev], out: nx.Consumed[Host]) -> Host:
    parts = nx.split(out, len(devs))
    downs = [s.download(d, into=p) for d, p in zip(devs, parts)]
    back = [t.wait() for t in downs]
    return nx.join(back)


def main(n: int = 64, chunks: int = 4) -> float:
    s = nx.stream()
    devs: list[Dev] = []
    for k in range(chunks):
        d = nx.device_array(n, np.float32)
        s.upload_staged(np.ones(n, dtype=np.float32), to=d).wait()
        s.launch(scale, 1, 64, d, float(k))
        devs.append(d)
    out = nx.pinned_array(n * chunks, np.float32)
    out = gather(s, devs, out)
    total = float(out.read().sum())
    s.close()
    assert total == n * sum(range(chunks)), total
    return total


if __name__ == "__main__":
    main()
