# Image tiles processed by chained round trips: each tile goes up, is blurred, and its
# download is chained onto the upload (the download takes the buffer over without a host
# wait). BUG, from the two-step habit: the loop still takes the tile back from the
# upload once the download is queued, but the chained download owns the upload now.
# RUN: raises UseAfterTransferError
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
TILE = 8


@cuda.jit
def blur(src: Any, dst: Any) -> None:
    i = cuda.grid(1)
    if i < src.size:
        left = src[i - 1] if i > 0 else src[i]
        right = src[i + 1] if i + 1 < src.size else src[i]
        dst[i] = (left + src[i] + right) / 3.0


def main(tiles: int = 3) -> None:
    s = nx.stream()
    d_in = [nx.device_array(TILE, np.float32) for _ in range(tiles)]
    d_out = [nx.device_array(TILE, np.float32) for _ in range(tiles)]
    downs: list[nx.Transfer[Host]] = []
    for t in range(tiles):
        tile = nx.pinned_copy(np.full(TILE, float(t + 1), dtype=np.float32))
        print(f"tile {t}: {tile.shape[0]} px, {tile.nbytes} bytes")
        up = s.upload(tile, to=d_in[t])
        print(f"tile {t} queued ({tile.size} px)")  # metadata of a moved buffer: fine
        s.launch(blur, 1, TILE, d_in[t], d_out[t])
        downs.append(s.download(d_out[t], into=up))
        tile = up.wait()  # E: use-after-transfer "up" "is used"
    finished = sum(1 for d in downs if d.done())
    print(f"{finished}/{tiles} tiles done")
    results = [d.wait() for d in downs]
    s.close()
    assert [float(r.read().mean()) for r in results] == [float(t + 1) for t in range(tiles)]


main()
