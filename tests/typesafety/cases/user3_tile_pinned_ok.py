# Tiled processing of a large numpy image in place: each tile (a contiguous block of
# rows) is page-locked with nx.pinned for its round trip; a tile whose statistics say it
# is blank is skipped after its upload has been taken back.
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx


@cuda.jit
def invert(a: Any) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = 1.0 - a[i]


def process_tile(s: nx.Stream[nx.Owned], tile: NDArray[np.float32]) -> bool:
    """Invert ``tile`` in place on the GPU; False if it was blank (left as is)."""
    dev = nx.device_array(tile.shape, np.float32)
    with nx.pinned(tile) as h:
        up = s.upload(h, to=dev)
        h = up.wait()
        if float(h.read().max()) == 0.0:
            return False  # blank: nothing to do, the upload is complete
        s.launch(invert, 1, 64, dev)
        h = s.download(dev, into=h).wait()
    return True


def main(rows: int = 8, cols: int = 16, tile_rows: int = 2) -> None:
    image = np.linspace(0.0, 1.0, rows * cols, dtype=np.float32).reshape(rows, cols)
    image[2:4] = 0.0  # a blank tile
    original = image.copy()
    s = nx.stream()
    done = 0
    for r in range(0, rows, tile_rows):
        tile = image[r : r + tile_rows].reshape(-1)  # a view: rows are contiguous
        done += process_tile(s, tile)
    s.close()
    expected = 1.0 - original
    expected[2:4] = 0.0
    assert done == rows // tile_rows - 1
    assert np.allclose(image, expected)


if __name__ == "__main__":
    main()
