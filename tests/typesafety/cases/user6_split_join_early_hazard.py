# RUN: raises UseAfterTransferError
# Planted bug: join() is called with the parts' original handles while their downloads
# are still pending (the developer thought join waits for them; the transfers are
# completed afterwards).
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
    whole = nx.join(parts)  # E: use-after-transfer
    for t in downs:
        t.wait()
    return whole


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
