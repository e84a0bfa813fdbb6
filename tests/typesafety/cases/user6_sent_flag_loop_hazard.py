# RUN: raises UseAfterTransferError
# Planted bug: the developer resets `sent = False` when a chunk is skipped, so a later
# refill skips the wait while the previous upload still owns the buffer; the refill raises.
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


def stream_chunks(chunks: list[NDArray[np.float32]], n: int) -> float:
    s = nx.stream()
    staging = nx.pinned_array(n, np.float32)
    dev = nx.device_array(n, np.float32)
    acc = nx.pinned_array(n, np.float32)
    total = 0.0
    sent = False
    up: nx.Transfer[Host] | None = None
    for chunk in chunks:
        if not chunk.any():
            sent = False
            continue
        if sent and up is not None:
            staging = up.wait()
            sent = False
        with staging.write() as a:  # E: use-after-transfer
            a[:] = chunk
        up = s.upload(staging, to=dev)  # E: unfinished-transfer "may be dropped here"  # E: unfinished-transfer "may be left unfinished"  # E: use-after-transfer "earlier loop iteration"
        sent = True
        s.launch(scale, 1, 64, dev, 2.0)
        acc = s.download(dev, into=acc).wait()
        total += float(acc.read().sum())
    if sent and up is not None:
        staging = up.wait()
    s.close()  # E: unfinished-transfer "is closed"
    return total


def main(n: int = 64) -> float:
    chunks = [
        np.ones(n, dtype=np.float32),
        np.zeros(n, dtype=np.float32),
        np.full(n, 2.0, dtype=np.float32),
        np.full(n, 3.0, dtype=np.float32),
    ]
    total = stream_chunks(chunks, n)
    assert total == 2.0 * 6.0 * n, total
    return total


if __name__ == "__main__":
    main()
