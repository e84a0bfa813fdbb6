# RUN: ok
"""Capture a small per-tile filter once as a CUDA graph and replay it over many tiles."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def threshold(src: Any, dst: Any, level: float) -> None:
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        dst[i] = 1.0 if src[i] > level else 0.0


class TileFilter:
    def __init__(self, tile: int) -> None:
        self.s = nx.stream()
        self.d_in = nx.device_array(tile, np.float32)
        self.d_out = nx.device_array(tile, np.float32)
        self.host_in: Host = nx.pinned_array(tile, np.float32)
        self.host_out: Host = nx.pinned_array(tile, np.float32)
        with nx.capture(self.s) as cap:
            up = self.s.upload(self.host_in, to=self.d_in)
            self.s.launch(threshold, 1, 64, self.d_in, self.d_out, 0.5)
            down = self.s.download(self.d_out, into=self.host_out)
        self.host_in, self.host_out = up.wait(), down.wait()
        self.graph = cap.graph

    def apply(self, tile: NDArray[np.float32]) -> int:
        with self.host_in.write() as a:
            a[:] = tile
        run = self.graph.replay(self.host_in, self.host_out)
        self.host_in, self.host_out = run.wait()
        return int(self.host_out.read().sum())

    def close(self) -> None:
        self.s.close()


def main() -> None:
    rng = np.random.default_rng(21)
    tiles = [rng.random(64, dtype=np.float32) for _ in range(4)]
    filt = TileFilter(64)
    counts = [filt.apply(t) for t in tiles]
    filt.close()
    assert counts == [int((t > 0.5).sum()) for t in tiles], counts
    print("bright pixels per tile:", counts)


if __name__ == "__main__":
    main()
