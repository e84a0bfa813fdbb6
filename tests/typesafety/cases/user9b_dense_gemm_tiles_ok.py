# RUN: ok
"""Row-blocked dense matrix product C = A @ B: the pinned A and C are split into
uneven row tiles (bounds chosen by a load balancer), each tile runs on its own stream
against a shared device copy of B, and the C tiles are joined at the end."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

M, K, P = 40, 16, 12
F64 = np.float64
Tile = nx.PinnedArray[nx.Owned, np.float64]


@cuda.jit
def gemm_rows(a: Any, b: Any, c: Any) -> None:
    i, j = cuda.grid(2)
    if i < c.shape[0] and j < c.shape[1]:
        acc = 0.0
        for k in range(a.shape[1]):
            acc += a[i, k] * b[k, j]
        c[i, j] = acc


def balance(rows: int, weights: list[float]) -> list[int]:
    cuts = np.round(np.cumsum([0.0, *weights]) / sum(weights) * rows).astype(int)
    return [int(c) for c in cuts]


def main() -> None:
    rng = np.random.default_rng(12)
    a_np, b_np = rng.standard_normal((M, K)), rng.standard_normal((K, P))
    streams = [nx.stream() for _ in range(3)]
    b_d = nx.device_array((K, P), F64)
    b_h = streams[0].upload(nx.pinned_copy(b_np), to=b_d).wait()
    bounds = balance(M, [1.0, 2.0, 1.5])
    a_tiles = nx.split(nx.pinned_copy(a_np), bounds=bounds)
    c_tiles = nx.split(nx.pinned_array((M, P), F64), bounds=bounds)
    ups: list[nx.Transfer[Tile]] = []
    downs: list[nx.Transfer[Tile]] = []
    for s, at, ct in zip(streams, a_tiles, c_tiles):
        a_d = nx.device_array(at.shape, F64)
        c_d = nx.device_array(ct.shape, F64)
        ups.append(s.upload(at, to=a_d))
        s.launch(gemm_rows, (2, 2), (16, 8), a_d, b_d, c_d)
        downs.append(s.download(c_d, into=ct))
    a_tiles = [t.wait() for t in ups]
    c_tiles = [t.wait() for t in downs]
    c = nx.join(c_tiles)
    a = nx.join(a_tiles)
    err = float(np.max(np.abs(c.read() - a.read() @ b_h.read())))
    print(f"tiles {bounds}, max error {err:.2e}")
    assert err < 1e-10
    for s in streams:
        s.close()


if __name__ == "__main__":
    main()
