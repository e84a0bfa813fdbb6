# C = A @ B tiled over k (see user5_tiled_matmul_ok.py). The bug, kind "a transfer never
# waited, then its destination read": ported from numba, where `stream.synchronize()`
# is how one waits, the final download is synchronized on the stream instead of taken
# back with wait(): hc is still the download's, and the transfer is never completed.
# RUN: raises UseAfterTransferError
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx


@cuda.jit
def gemm_acc(a: Any, b: Any, c: Any) -> None:
    i, j = cuda.grid(2)
    if i < c.shape[0] and j < c.shape[1]:
        acc = 0.0
        for k in range(a.shape[1]):
            acc += a[i, k] * b[k, j]
        c[i, j] += acc


def matmul_tiled(a: NDArray[np.float32], b: NDArray[np.float32], tk: int = 8) -> NDArray[np.float32]:
    m, kk = a.shape
    n = b.shape[1]
    s = nx.stream()
    ha = nx.pinned_array((m, tk), np.float32)
    hb = nx.pinned_array((tk, n), np.float32)
    da = nx.device_array((m, tk), np.float32)
    db = nx.device_array((tk, n), np.float32)
    dc = nx.device_array((m, n), np.float32)
    s.upload_staged(np.zeros((m, n), np.float32), to=dc)
    grid = ((m + 7) // 8, (n + 7) // 8)

    for k0 in range(0, kk, tk):
        with ha.write() as wa, hb.write() as wb:
            wa[:] = a[:, k0 : k0 + tk]
            wb[:] = b[k0 : k0 + tk, :]
        up_a = s.upload(ha, to=da)
        up_b = s.upload(hb, to=db)
        s.launch(gemm_acc, grid, (8, 8), da, db, dc)
        ha = up_a.wait()
        hb = up_b.wait()

    hc = nx.pinned_array((m, n), np.float32)
    down = s.download(dc, into=hc)  # E: unfinished-transfer "down"
    s.synchronize()
    result: NDArray[np.float32] = hc.read().copy()  # E: use-after-transfer "hc"
    s.close()  # E: unfinished-transfer "is closed"
    return result


if __name__ == "__main__":
    rng = np.random.default_rng(1)
    a = rng.standard_normal((16, 32)).astype(np.float32)
    b = rng.standard_normal((32, 8)).astype(np.float32)
    c = matmul_tiled(a, b)
    assert np.allclose(c, a @ b, atol=1e-4)
    print("tiled matmul ok")
