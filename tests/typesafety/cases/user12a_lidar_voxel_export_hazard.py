# RUN: warns ResourceWarning anywhere
# Planted bug: the except branch for an invalid sweep skips it with `continue` without completing the grid download already in flight.
"""LiDAR sweep voxelizer exporting occupancy grids, with a metadata validation step.

Each sweep's points are uploaded, counted into an 8x8x8 occupancy grid by an atomic
kernel, and the grid is downloaded into a pinned export buffer. While the download runs
the sweep's metadata is validated; a sweep with a bad timestamp is skipped, but its
download is still completed and the buffer returned.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

G = 8


@cuda.jit
def zero_i32(a: Any) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = 0


@cuda.jit
def voxelize(pts: Any, grid: Any) -> None:
    for i in range(cuda.grid(1), pts.shape[0], cuda.gridsize(1)):
        x = min(int(pts[i, 0] * 8), 7)
        y = min(int(pts[i, 1] * 8), 7)
        z = min(int(pts[i, 2] * 8), 7)
        cuda.atomic.add(grid, (x * 8 + y) * 8 + z, 1)


class Sweep(NamedTuple):
    index: int  # type: ignore[assignment]
    stamp: float
    points: NDArray[np.float32]


@dataclass
class Exporter:
    n_points: int

    def __post_init__(self) -> None:
        self.stream = nx.stream()
        self.d_pts = nx.device_array((self.n_points, 3), np.float32)
        self.d_grid = nx.device_array(G * G * G, np.int32)
        self.last_stamp = -1.0
        self.exported: dict[int, NDArray[np.int32]] = {}
        self.skipped: list[int] = []

    def validate(self, sweep: Sweep) -> None:
        if sweep.stamp <= self.last_stamp:
            raise ValueError(f"sweep {sweep.index}: timestamp {sweep.stamp} not increasing")
        self.last_stamp = sweep.stamp

    def export(self, sweeps: list[Sweep]) -> None:
        for sweep in sweeps:
            pts = self.stream.upload(nx.pinned_copy(sweep.points), to=self.d_pts)
            self.stream.launch(zero_i32, 2, 64, self.d_grid)
            self.stream.launch(voxelize, 2, 64, self.d_pts, self.d_grid)
            down = self.stream.download(self.d_grid, into=nx.pinned_array(G * G * G, np.int32))  # E: unfinished-transfer  # E: unfinished-transfer
            pts.wait().free()
            try:
                self.validate(sweep)
            except ValueError:
                self.skipped.append(sweep.index)
                continue
            buf = down.wait()
            self.exported[sweep.index] = buf.read().copy()
            buf.free()

    def close(self) -> None:
        self.stream.close()


def main() -> None:
    rng = np.random.default_rng(21)
    n = 1024
    stamps = [0.0, 0.1, 0.2, 0.15, 0.3]
    sweeps = [Sweep(i, ts, rng.random((n, 3), dtype=np.float32)) for i, ts in enumerate(stamps)]
    ex = Exporter(n)
    ex.export(sweeps)
    ex.close()
    assert ex.skipped == [3], ex.skipped
    for idx, grid in ex.exported.items():
        ref, _ = np.histogramdd(sweeps[idx].points, bins=(G, G, G), range=[(0, 1)] * 3)
        assert np.array_equal(grid.reshape(G, G, G), ref.astype(np.int32)), f"sweep {idx}"
    print(f"lidar_voxel_export: exported {sorted(ex.exported)}, skipped {ex.skipped}")


if __name__ == "__main__":
    main()
