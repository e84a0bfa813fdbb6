# RUN: ok
"""CSR sparse matrix-vector products for a few power-iteration steps, with the
staging of the CSR arrays split over small helpers."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

F32, I32 = np.float32, np.int32
FHost = nx.PinnedArray[nx.Owned, np.float32]
IHost = nx.PinnedArray[nx.Owned, np.int32]


@cuda.jit
def csr_spmv(indptr: Any, indices: Any, data: Any, x: Any, y: Any) -> None:
    row = cuda.grid(1)
    if row < y.size:
        acc = 0.0
        for k in range(indptr[row], indptr[row + 1]):
            acc += data[k] * x[indices[k]]
        y[row] = acc


def laplacian_1d(n: int) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    indptr: list[int] = [0]
    indices: list[int] = []
    data: list[float] = []
    for i in range(n):
        for j, v in ((i - 1, -1.0), (i, 2.0), (i + 1, -1.0)):
            if 0 <= j < n:
                indices.append(j)
                data.append(v)
        indptr.append(len(indices))
    return np.array(indptr, I32), np.array(indices, I32), np.array(data, F32)


def stage_f(buf: nx.Consumed[FHost], s: nx.Stream[nx.Owned]) -> tuple[nx.DeviceArray[nx.Owned, np.float32], nx.Transfer[FHost]]:
    dev = nx.device_array(buf.size, F32)
    return dev, s.upload(buf, to=dev)


def stage_i(buf: nx.Consumed[IHost], s: nx.Stream[nx.Owned]) -> tuple[nx.DeviceArray[nx.Owned, np.int32], nx.Transfer[IHost]]:
    dev = nx.device_array(buf.size, I32)
    return dev, s.upload(buf, to=dev)


def frobenius(data: FHost) -> float:
    return float(np.sqrt(np.sum(data.read().astype(np.float64) ** 2)))


def main(n: int = 48, iters: int = 5) -> None:
    s = nx.stream()
    ip, ix, dv = laplacian_1d(n)
    h_ip, h_ix, h_dv = nx.pinned_copy(ip), nx.pinned_copy(ix), nx.pinned_copy(dv)
    fro = frobenius(h_dv)
    d_ip, t_ip = stage_i(h_ip, s)
    d_ix, t_ix = stage_i(h_ix, s)
    d_dv, t_dv = stage_f(h_dv, s)
    x = nx.pinned_copy(np.ones(n, F32))
    d_x, d_y = nx.device_array(n, F32), nx.device_array(n, F32)
    x = s.upload(x, to=d_x).wait()
    lam = 0.0
    for _ in range(iters):
        s.launch(csr_spmv, 1, 64, d_ip, d_ix, d_dv, d_x, d_y)
        x = s.download(d_y, into=x).wait()
        v = x.read()
        lam = float(np.linalg.norm(v))
        with x.write() as w:
            w[:] = v / lam
        x = s.upload(x, to=d_x).wait()
    h_ip, h_ix, h_dv = t_ip.wait(), t_ix.wait(), t_dv.wait()
    print(f"||A||_F = {fro:.3f}, dominant eigenvalue estimate {lam:.3f}")
    s.close()


if __name__ == "__main__":
    main()
