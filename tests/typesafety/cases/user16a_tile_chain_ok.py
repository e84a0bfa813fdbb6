# RUN: ok
"""A tiled image filter: every tile is uploaded, blurred on the device and downloaded
back into its own pinned buffer; the download is chained onto the upload, so the
buffer goes from one transfer to the next with no host wait. Some tiles are reference
tiles that stay on the device (upload only) for a later pass.

`Tile` records whichever transfer currently holds the tile's buffer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def blur3(src: Any, dst: Any) -> None:
    n = src.size
    for i in range(cuda.grid(1), n, cuda.gridsize(1)):
        lo = i - 1 if i > 0 else i
        hi = i + 1 if i < n - 1 else i
        dst[i] = (src[lo] + src[i] + src[hi]) / 3.0


@dataclass
class Tile:
    index: int
    reference: bool
    up: nx.Transfer[Host] | None = None
    down: nx.Transfer[Host] | None = None


class TileFilter:
    def __init__(self, tile: int, tiles: int) -> None:
        self.stream = nx.stream()
        self.dev_in = [nx.device_array(tile, np.float32) for _ in range(tiles)]
        self.dev_out = [nx.device_array(tile, np.float32) for _ in range(tiles)]
        self.jobs: list[Tile] = []
        self.results: dict[int, NDArray[np.float32]] = {}
        self.homes: list[Host] = []

    def submit(self, index: int, data: NDArray[np.float32], reference: bool) -> None:
        up = self.stream.upload(nx.pinned_copy(data), to=self.dev_in[index])
        if reference:
            self.jobs.append(Tile(index, True, up=up))
            return
        self.stream.launch(blur3, 1, 64, self.dev_in[index], self.dev_out[index])
        down = self.stream.download(self.dev_out[index], into=up)
        self.jobs.append(Tile(index, False, down=down))

    def finish(self) -> None:
        for job in self.jobs:
            if job.up is not None:
                self.homes.append(job.up.wait())
            if job.down is not None:
                buf = job.down.wait()
                self.results[job.index] = buf.read().copy()
                self.homes.append(buf)
        self.jobs.clear()

    def close(self) -> None:
        self.stream.close()


def main() -> None:
    tile, tiles = 128, 4
    rng = np.random.default_rng(9)
    image = rng.random(tile * tiles).astype(np.float32)
    f = TileFilter(tile, tiles)
    for k in range(tiles):
        f.submit(k, image[k * tile : (k + 1) * tile], reference=(k == 3))
    f.finish()
    f.close()
    assert sorted(f.results) == [0, 1, 2]
    for k, got in f.results.items():
        t = image[k * tile : (k + 1) * tile]
        padded = np.concatenate([t[:1], t, t[-1:]])
        expect = (padded[:-2] + padded[1:-1] + padded[2:]) / np.float32(3.0)
        assert np.allclose(got, expect, atol=1e-6), k
    assert len(f.homes) == tiles
    print("tile_chain: ok", {k: round(float(v.mean()), 4) for k, v in f.results.items()})


if __name__ == "__main__":
    main()
