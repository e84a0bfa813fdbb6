# RUN: raises BorrowError
# Planted bug: the divergence check reads the nx.pinned block's handle after the block has ended (the memory is no longer pinned under it).
"""Gravity-anomaly smoothing on a survey grid held in ordinary numpy memory: the rows
are pinned in place with nx.pinned for the duration of the device work (no staging
copy), smoothed on the device and written back into the same memory."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

F64 = np.float64


@cuda.jit
def smooth5(src: Any, dst: Any) -> None:
    i = cuda.grid(1)
    n = src.size
    if i < n:
        acc, cnt = 0.0, 0
        for d in range(-2, 3):
            j = i + d
            if 0 <= j < n:
                acc += src[j]
                cnt += 1
        dst[i] = acc / cnt


def smooth_rows(grid: np.ndarray[Any, Any], s: nx.Stream[nx.Owned]) -> float:
    """Smooth every row of ``grid`` in place; return the largest change."""
    row_len = grid.shape[1]
    src_d, dst_d = nx.device_array(row_len, F64), nx.device_array(row_len, F64)
    before = grid.copy()
    for r in range(grid.shape[0]):
        row = grid[r]
        with nx.pinned(row) as h:
            up = s.upload(h, to=src_d)
            s.launch(smooth5, 1, 64, src_d, dst_d)
            down = s.download(dst_d, into=up)
            h = down.wait()
        peak = float(np.abs(h.read()).max())  # E: use-after-transfer
        if peak > 1e6:
            raise FloatingPointError(f"row {r} diverged")
    return float(np.abs(grid - before).max())


def main() -> None:
    rng = np.random.default_rng(21)
    y, x = np.mgrid[0:12, 0:48]
    grid = np.exp(-((x - 24.0) ** 2 + (y - 6.0) ** 2) / 40.0) + rng.normal(0.0, 0.05, (12, 48))
    s = nx.stream()
    changes = [smooth_rows(grid, s) for _ in range(3)]
    print(f"largest change per pass: {[round(c, 4) for c in changes]}")
    assert changes[0] > changes[-1]
    s.close()


if __name__ == "__main__":
    main()
