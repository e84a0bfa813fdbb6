# RUN: ok
"""Gamma-corrected mosaic built from row tiles of one image, split across streams.

The pinned image and its device copy are split into row tiles (``nx.split``); each tile
goes up on its own stream, a gamma kernel runs on it, and the download chains onto the
upload's buffer. A ``MosaicBuilder`` context manager tracks one ``TileJob`` dataclass per
tile; ``result()`` completes a job once, and ``__exit__`` completes whatever is left
before the tiles are joined back.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import TracebackType
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def gamma(tile: Any, g: float) -> None:
    y, x = cuda.grid(2)
    if y < tile.shape[0] and x < tile.shape[1]:
        tile[y, x] = math.pow(tile[y, x], g)


@dataclass
class TileJob:
    index: int
    transfer: nx.Transfer[Host]
    part: Host | None = None

    def result(self) -> Host:
        if self.part is None:
            self.part = self.transfer.wait()
        return self.part


class MosaicBuilder:
    def __init__(self, image: NDArray[np.float32], tiles: int, g: float) -> None:
        self.g = g
        self.shape = image.shape
        self.streams = [nx.stream() for _ in range(tiles)]
        self.host_parts = nx.split(nx.pinned_copy(image), tiles)
        self.dev_parts = nx.split(nx.device_array(image.shape, np.float32), tiles)
        self.jobs: list[TileJob] = []

    def __enter__(self) -> MosaicBuilder:
        for i, (s, h, d) in enumerate(zip(self.streams, self.host_parts, self.dev_parts)):
            up = s.upload(h, to=d)
            grid = ((d.shape[0] + 7) // 8, (d.shape[1] + 7) // 8)
            s.launch(gamma, grid, (8, 8), d, self.g)
            self.jobs.append(TileJob(i, s.download(d, into=up)))
        self.host_parts = []
        return self

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        for job in self.jobs:
            job.result()
        for s in self.streams:
            s.close()

    def assemble(self) -> NDArray[np.float32]:
        parts = [job.result() for job in self.jobs]
        whole = nx.join(parts)
        nx.join(self.dev_parts).free()
        image: NDArray[np.float32] = whole.read().copy()
        whole.free()
        return image


def main() -> None:
    h, w, tiles, g = 32, 32, 4, 0.5
    rng = np.random.default_rng(17)
    image = rng.random((h, w), dtype=np.float32)
    with MosaicBuilder(image, tiles, g) as mb:
        first = mb.jobs[0].result()
        preview = float(first.read().mean())
    mosaic = mb.assemble()
    assert np.allclose(mosaic, np.power(image, g), rtol=1e-5), "gamma mosaic mismatch"
    assert abs(preview - float(np.power(image[: h // tiles], g).mean())) < 1e-5
    print(f"tile_mosaic: {tiles} tiles, preview mean {preview:.4f}")


if __name__ == "__main__":
    main()
