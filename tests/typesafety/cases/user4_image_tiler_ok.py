# An image tiler: the image is split into row bands with nx.split, each band goes up,
# through a kernel and back on its own stream, and nx.join makes the image whole again.
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
ROWS, COLS, TILES = 8, 4, 4


@cuda.jit
def invert(tile: Any) -> None:
    r, c = cuda.grid(2)
    if r < tile.shape[0] and c < tile.shape[1]:
        tile[r, c] = 1.0 - tile[r, c]


def process_tile(s: nx.Stream[nx.Lent], tile: nx.Consumed[Host], dev: Dev) -> nx.Transfer[Host]:
    up = s.upload(tile, to=dev)
    s.launch(invert, (1, 1), (ROWS // TILES, COLS), dev)
    return s.download(dev, into=up)


def main() -> None:
    image = nx.pinned_copy(np.linspace(0, 1, ROWS * COLS, dtype=np.float32).reshape(ROWS, COLS))
    dev = nx.device_array((ROWS, COLS), np.float32)
    streams = [nx.stream() for _ in range(TILES)]
    tiles = nx.split(image, TILES)
    dtiles = nx.split(dev, TILES)
    downs = [process_tile(s, t, d) for s, t, d in zip(streams, tiles, dtiles)]
    done = [down.wait() for down in downs]
    image = nx.join(done)
    dev = nx.join(dtiles)
    expected = 1.0 - np.linspace(0, 1, ROWS * COLS, dtype=np.float32).reshape(ROWS, COLS)
    assert np.allclose(image.read(), expected)
    print("tiles:", TILES, "corner:", image.read()[0, 0])
    for s in streams:
        s.close()


main()
