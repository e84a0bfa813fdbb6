# XFAIL: miss, line 31: the nx.pinned block ends with its chained download unfinished because the transfer was appended to a list (pending.append(down)) to be waited after the loop; a transfer stored in a container is not checked at the block end.
# Normalizing ordinary numpy arrays in place on the GPU with scoped pinning
# (`with cuda.pinned(a):` ported to nx.pinned): each array is pinned for the block,
# uploaded, normalized by a kernel and downloaded back into itself. BUG: to overlap the
# arrays, the downloads are collected and waited after the loop: each pinned block ends
# with its download unfinished.
# RUN: raises UnfinishedTransferError
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
    pending: list[nx.Transfer[nx.PinnedArray[nx.Owned, np.float32]]] = []
    for arr in arrays:
        lo, hi = float(arr.min()), float(arr.max())
        dev = nx.device_array(arr.shape, arr.dtype)
        with nx.pinned(arr) as h:  # E: unfinished-transfer "down" "when this block ends"
            up = s.upload(h, to=dev)
            s.launch(normalize, 1, arr.size, dev, lo, (hi - lo) or 1.0)
            down = s.download(dev, into=up)  # chained onto the upload: no host wait
            pending.append(down)
        dev.free()
    for down in pending:
        down.wait()


def main() -> None:
    s = nx.stream()
    arrays = [np.arange(8, dtype=np.float32) * k for k in (1.0, 2.0, 5.0)]
    normalize_in_place(arrays, s)
    s.close()
    for arr in arrays:
        assert arr.min() == 0.0 and arr.max() == 1.0, arr


main()
