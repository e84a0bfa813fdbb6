# The transfer a generator yields is reported at the loop that takes it (its start line).
# Planted bug: the consumer stops early with `break` once the running sum exceeds a
# limit, leaving the last transfer it received uncompleted (the developer thought the
# generator cleans up).
from __future__ import annotations

import gc
from collections.abc import Iterator
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


def tile_downloads(s: nx.Stream[nx.Lent], tiles: list[Dev]) -> Iterator[nx.Transfer[Host]]:
    for tile in tiles:
        yield s.download(tile, into=nx.pinned_array(tile.shape, np.float32))


def make_tiles(s: nx.Stream[nx.Lent], n: int, count: int) -> list[Dev]:
    tiles: list[Dev] = []
    for k in range(count):
        dev = nx.device_array(n, np.float32)
        s.upload_staged(np.ones(n, dtype=np.float32), to=dev).wait()
        s.launch(scale, 1, 64, dev, float(k))
        tiles.append(dev)
    return tiles


def bounded_sum(s: nx.Stream[nx.Lent], tiles: list[Dev], limit: float) -> float:
    total = 0.0
    for t in tile_downloads(s, tiles):  # E: unfinished-transfer "\"t\"" "may be left unfinished"
        if total > limit:
            break
        buf = t.wait()
        total += float(buf.read().sum())
    return total


def main(n: int = 64) -> float:
    s = nx.stream()
    tiles = make_tiles(s, n, 5)
    total = bounded_sum(s, tiles, 2.0 * n)
    gc.collect()
    print(total)
    assert total == 3.0 * n, total
    return total


if __name__ == "__main__":
    main()
