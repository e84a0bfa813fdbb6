# Normalizing ordinary numpy arrays in place on the GPU with scoped pinning
# (`with cuda.pinned(a):` ported to nx.pinned): each array is pinned for the block,
# uploaded, normalized by a kernel and downloaded back into itself. Correct: the download
# is waited inside the block, so the memory is unpinned only after the copy landed.
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx


@cuda.jit
def normalize(a: Any, lo: float, span: float) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] = (a[i] - lo) / span


def normalize_in_place(arrays: list[NDArray[np.float32]], s: nx.Stream[nx.Owned]) -> None:
    for arr in arrays:
        lo, hi = float(arr.min()), float(arr.max())
        dev = nx.device_array(arr.shape, arr.dtype)
        with nx.pinned(arr) as h:
            up = s.upload(h, to=dev)
            s.launch(normalize, 1, arr.size, dev, lo, (hi - lo) or 1.0)
            down = s.download(dev, into=up)  # chained onto the upload: no host wait
            h = down.wait()
        dev.free()


def main() -> None:
    s = nx.stream()
    arrays = [np.arange(8, dtype=np.float32) * k for k in (1.0, 2.0, 5.0)]
    normalize_in_place(arrays, s)
    s.close()
    for arr in arrays:
        assert arr.min() == 0.0 and arr.max() == 1.0, arr


main()
