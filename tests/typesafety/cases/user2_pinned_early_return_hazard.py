# Scaling numpy arrays in place with scoped pinning, with an early exit: a factor of 1
# needs no kernel, so the function returns as soon as it knows. BUG: the early exit
# returns from inside the pinned block with the upload still reading the array.
# RUN: raises UnfinishedTransferError
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx


@cuda.jit
def scale(a: Any, k: float) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= k


def scale_in_place(arr: NDArray[np.float32], k: float, s: nx.Stream[nx.Owned]) -> bool:
    """Scale ``arr`` by ``k`` on the GPU; False when there was nothing to do."""
    dev = nx.device_array(arr.shape, arr.dtype)
    with nx.pinned(arr) as h:  # E: unfinished-transfer "up" "when this block ends"
        up = s.upload(h, to=dev)  # E: unfinished-transfer "up" "on some path"
        if k == 1.0:
            return False
        s.launch(scale, 1, arr.size, dev, k)
        h = s.download(dev, into=up).wait()
    return True


def main() -> None:
    s = nx.stream()
    a = np.arange(8, dtype=np.float32)
    assert scale_in_place(a, 2.0, s)
    assert not scale_in_place(a, 1.0, s)
    s.close()
    assert (a == 2.0 * np.arange(8, dtype=np.float32)).all(), a


main()
