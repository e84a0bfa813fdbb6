# RUN: warns ResourceWarning anywhere
# Planted bug: an "optimisation" checks a cheap host-side hint before waiting and breaks
# right after starting the download, leaving it never completed.
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


def first_hot_tile(
    s: nx.Stream[nx.Lent], tiles: list[Dev], hints: list[bool], threshold: float
) -> tuple[int, Host]:
    buf = nx.pinned_array(tiles[0].shape, np.float32)
    hit = -1
    for i, tile in enumerate(tiles):
        down = s.download(tile, into=buf)  # E: unfinished-transfer "may be left unfinished"
        if hints[i]:
            break  # (the leak is reported where the download starts)
        buf = down.wait()
        if float(buf.read().max()) > threshold:
            hit = i
            break
    return hit, buf  # E: use-after-transfer "may be used"


def main(n: int = 64) -> int:
    s = nx.stream()
    tiles: list[Dev] = []
    for k in range(5):
        dev = nx.device_array(n, np.float32)
        s.upload_staged(np.full(n, 1.0, dtype=np.float32), to=dev).wait()
        s.launch(scale, 1, 64, dev, float(k))
        tiles.append(dev)
    hit, buf = first_hot_tile(s, tiles, [False, False, True, False, False], 2.5)
    del buf
    print('hit', hit)
    return hit


if __name__ == "__main__":
    main()
