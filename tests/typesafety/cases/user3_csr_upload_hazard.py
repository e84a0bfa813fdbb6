# A CSR sparse matrix (indptr, indices, data) uploaded in three pinned buffers on one
# stream, the three transfers waited in the order they were enqueued, then y = A @ x.
# The bugs: nnz is read from the indptr buffer before its upload is waited, and the
# indices upload is never waited at all.
# RUN: raises UseAfterTransferError
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx


@cuda.jit
def spmv(indptr: Any, indices: Any, data: Any, x: Any, y: Any) -> None:
    row = cuda.grid(1)
    if row < y.size:
        acc = 0.0
        for j in range(indptr[row], indptr[row + 1]):
            acc += data[j] * x[indices[j]]
        y[row] = acc


@dataclass
class DeviceCSR:
    indptr: nx.DeviceArray[nx.Owned, np.int32]
    indices: nx.DeviceArray[nx.Owned, np.int32]
    data: nx.DeviceArray[nx.Owned, np.float32]
    rows: int


def random_csr(rows: int, cols: int, seed: int) -> tuple[NDArray[np.int32], NDArray[np.int32], NDArray[np.float32]]:
    rng = np.random.default_rng(seed)
    counts = rng.integers(1, 4, size=rows)
    indptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int32)
    indices = rng.integers(0, cols, size=int(indptr[-1])).astype(np.int32)
    data = rng.standard_normal(int(indptr[-1])).astype(np.float32)
    return indptr, indices, data


def upload_csr(s: nx.Stream[nx.Owned], rows: int, cols: int) -> tuple[DeviceCSR, NDArray[np.float32]]:
    indptr, indices, data = random_csr(rows, cols, seed=1)
    h_indptr = nx.pinned_copy(indptr)
    h_indices = nx.pinned_copy(indices)
    h_data = nx.pinned_copy(data)
    dev = DeviceCSR(
        nx.device_array(h_indptr.shape, np.int32),
        nx.device_array(h_indices.shape, np.int32),
        nx.device_array(h_data.shape, np.float32),
        rows,
    )
    up_ptr = s.upload(h_indptr, to=dev.indptr)
    up_val = s.upload(h_data, to=dev.data)
    up_idx = s.upload(h_indices, to=dev.indices)  # E: unfinished-transfer "\"up_idx\""
    nnz = int(h_indptr.read()[-1])  # E: use-after-transfer "\"h_indptr\""
    h_indptr = up_ptr.wait()
    h_data = up_val.wait()
    assert nnz == h_data.size
    dense = np.zeros((rows, cols), np.float32)
    for r in range(rows):
        for j in range(indptr[r], indptr[r + 1]):
            dense[r, indices[j]] += data[j]
    return dev, dense


def main(rows: int = 16, cols: int = 12) -> None:
    s = nx.stream()
    csr, dense = upload_csr(s, rows, cols)
    x = np.linspace(0.0, 1.0, cols, dtype=np.float32)
    d_x = nx.device_array(cols, np.float32)
    s.upload_staged(x, to=d_x)
    d_y = nx.device_array(rows, np.float32)
    s.launch(spmv, 1, 32, csr.indptr, csr.indices, csr.data, d_x, d_y)
    y = s.download(d_y, into=nx.pinned_array(rows, np.float32)).wait()
    s.close()
    assert np.allclose(y.read(), dense @ x, atol=1e-5)


if __name__ == "__main__":
    main()
