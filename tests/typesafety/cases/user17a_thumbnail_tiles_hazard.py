# RUN: raises UseAfterTransferError via-call
# Planted bug: the first tile's download was already completed in assemble()
"""Thumbnails built tile by tile: each band of rows goes up on one of two streams, is
box-filtered 2x2 on the device and comes back; a NamedTuple record per tile keeps the
two transfers until ``assemble`` puts the thumbnail together.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@nx.kernel(reads=["src"], writes=["dst"])
@cuda.jit
def box2x2(src: Any, dst: Any) -> None:
    y, x = cuda.grid(2)
    if y < dst.shape[0] and x < dst.shape[1]:
        acc = src[2 * y, 2 * x] + src[2 * y, 2 * x + 1]
        acc += src[2 * y + 1, 2 * x] + src[2 * y + 1, 2 * x + 1]
        dst[y, x] = 0.25 * acc


class TileJob(NamedTuple):
    row: int                      # first row of the tile in the thumbnail
    upload: nx.Transfer[Host]     # the tile's pinned copy, on its way up
    download: nx.Transfer[Host]   # the filtered tile, on its way down


class ThumbnailBuilder:
    def __init__(self, width: int, tile_rows: int, streams: int = 2) -> None:
        assert width % 2 == 0 and tile_rows % 2 == 0
        self.width, self.tile_rows = width, tile_rows
        self.streams = [nx.stream() for _ in range(streams)]
        self.dev_in = [nx.device_array((tile_rows, width), np.float32) for _ in range(streams)]
        self.dev_out = [
            nx.device_array((tile_rows // 2, width // 2), np.float32) for _ in range(streams)
        ]

    def start(self, image: NDArray[np.float32]) -> list[TileJob]:
        jobs: list[TileJob] = []
        for k, top in enumerate(range(0, image.shape[0], self.tile_rows)):
            i = k % len(self.streams)
            s, d_in, d_out = self.streams[i], self.dev_in[i], self.dev_out[i]
            tile = nx.pinned_copy(np.ascontiguousarray(image[top : top + self.tile_rows]))
            up = s.upload(tile, to=d_in)
            s.launch(box2x2, (d_out.shape[0] // 8 + 1, d_out.shape[1] // 8 + 1), (8, 8), d_in, d_out)
            small = nx.pinned_array(d_out.shape, np.float32)
            down = s.download(d_out, into=small)
            jobs.append(TileJob(top // 2, up, down))
        return jobs

    def assemble(self, jobs: list[TileJob], height: int) -> tuple[NDArray[np.float32], list[Host]]:
        thumb = np.zeros((height // 2, self.width // 2), dtype=np.float32)
        tiles: list[Host] = []
        for job in jobs:
            job.upload.wait().free()  # the staging copy is no longer needed
            small = job.download.wait()
            rows = small.read()
            thumb[job.row : job.row + rows.shape[0]] = rows
            tiles.append(small)
        return thumb, tiles

    def close(self) -> None:
        for s in self.streams:
            s.close()


def first_tile_preview(jobs: list[TileJob]) -> float:
    """A quick brightness figure for the UI, from the first finished tile."""
    first = jobs[0].download.wait()
    return float(first.read().mean(dtype=np.float64))


def reference(image: NDArray[np.float32]) -> NDArray[np.float32]:
    h, w = image.shape
    out: NDArray[np.float32] = image.reshape(h // 2, 2, w // 2, 2).mean(axis=(1, 3))
    return out


def main(height: int = 32, width: int = 16, tile_rows: int = 8) -> NDArray[np.float32]:
    rng = np.random.default_rng(7)
    image = rng.random((height, width), dtype=np.float32)
    builder = ThumbnailBuilder(width, tile_rows)
    jobs = builder.start(image)
    thumb, tiles = builder.assemble(jobs, height)
    preview = first_tile_preview(jobs)  # E: transfer-completed-twice
    builder.close()

    ref = reference(image)
    assert np.allclose(thumb, ref, atol=1e-6), "thumbnail mismatch"
    assert abs(preview - float(ref[: tile_rows // 2].mean())) < 1e-5, preview
    return thumb


if __name__ == "__main__":
    result = main()
    print(f"thumbnail_tiles: {result.shape[0]}x{result.shape[1]} thumbnail, mean {result.mean():.4f}")
