# RUN: raises UseAfterTransferError
# Planted bug: the except handler logs a checksum of the frame by reading the host
# buffer, which the upload still owns at that point (the wait is in the finally clause).
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


class BadFrame(Exception):
    pass


def register(meta: dict[str, int]) -> None:
    if meta["frame"] % 2 == 1:
        raise BadFrame(f"odd frame {meta['frame']}")


def push_frame(s: nx.Stream[nx.Lent], host: Host, dev: Dev, meta: dict[str, int]) -> Host:
    up = s.upload(host, to=dev)
    try:
        register(meta)
    except BadFrame as e:
        print(f"frame rejected: {e}, sum {host.read().sum()}")  # E: use-after-transfer
        raise
    finally:
        host = up.wait()
    s.launch(scale, 1, 64, dev, 2.0)
    return host


def main(n: int = 64) -> int:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    host = nx.pinned_copy(np.arange(n, dtype=np.float32))
    rejected = 0
    for frame in range(4):
        try:
            host = push_frame(s, host, dev, {"frame": frame})
        except BadFrame:
            rejected += 1
            host = nx.pinned_copy(np.arange(n, dtype=np.float32))
    s.close()
    assert rejected == 2, rejected
    return rejected


if __name__ == "__main__":
    main()
