# RUN: raises UseAfterTransferError
# Planted bug: the developer waits the compute stream's kernel with
# `compute.synchronize()` and then refills the input, assuming that sync also covers the
# copy stream's upload; the upload was never waited, the buffer is still moved.
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


def pipeline(values: list[float], n: int) -> list[float]:
    copy_s, compute = nx.stream(), nx.stream()
    d = nx.device_array(n, np.float32)
    h_in = nx.pinned_array(n, np.float32)
    h_out = nx.pinned_array(n, np.float32)
    seen: list[float] = []
    for v in values:
        with h_in.write() as a:  # E: use-after-transfer
            a[:] = v
        up = copy_s.upload(h_in, to=d)  # E: unfinished-transfer "may be dropped here"  # E: unfinished-transfer "may be left unfinished"  # E: use-after-transfer "earlier loop iteration"
        compute.launch(scale, 1, 64, d, 10.0)
        compute.synchronize()
        h_out = copy_s.download(d, into=h_out).wait()
        seen.append(float(h_out.read()[0]))
    copy_s.close()  # E: unfinished-transfer "is closed"
    compute.close()
    return seen


def main(n: int = 64) -> list[float]:
    seen = pipeline([1.0, 2.0, 3.0], n)
    assert seen == [10.0, 20.0, 30.0], seen
    return seen


if __name__ == "__main__":
    main()
