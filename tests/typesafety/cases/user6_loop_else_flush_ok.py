# RUN: ok
# Accumulates batches into a pinned buffer, uploading each full batch; a for/else flushes
# the final partial batch when the loop did not stop early on a sentinel.
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


def upload_batches(values: list[float], n: int, sentinel: float) -> float:
    s = nx.stream()
    buf = nx.pinned_array(n, np.float32)
    dev = nx.device_array(n, np.float32)
    total = 0.0
    up: nx.Transfer[Host] | None = None
    for v in values:
        if v == sentinel:
            break
        if up is not None:
            buf = up.wait()
            up = None
        with buf.write() as a:
            a[:] = v
        up = s.upload(buf, to=dev)
        s.launch(scale, 1, 64, dev, 1.0)
        total += v * n
    else:
        if up is not None:
            buf = up.wait()
            up = None
        with buf.write() as a:
            a[:] = 0.0
        s.upload(buf, to=dev).wait()
    if up is not None:
        buf = up.wait()
    s.close()
    return total


def main(n: int = 64) -> tuple[float, float]:
    full = upload_batches([1.0, 2.0, 3.0], n, -1.0)
    cut = upload_batches([1.0, -1.0, 3.0], n, -1.0)
    assert full == 6.0 * n and cut == 1.0 * n, (full, cut)
    return full, cut


if __name__ == "__main__":
    main()
