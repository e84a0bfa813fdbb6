# A matrix-vector product over ragged row blocks (see user5_row_blocks_ok.py). The bug,
# XFAIL: miss: the take-back loop "for i, t in enumerate(downs[:-1]): h_parts[i] = t.wait()" (lines 47-48) leaves the last part moved, and nx.join(h_parts) at line 49 is not reported
# kind "an owned part still moved when the parts are joined": the take-back loop skips
# the ragged last block (an off-by-one slice written for "full blocks only"), so the
# join takes a part whose download is pending.
# RUN: raises UseAfterTransferError
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@nx.kernel(reads=["a", "x"], writes=["y"])
@cuda.jit
def matvec(a: Any, x: Any, y: Any) -> None:
    for i in range(cuda.grid(1), y.size, cuda.gridsize(1)):
        acc = 0.0
        for j in range(x.size):
            acc += a[i, j] * x[j]
        y[i] = acc


def blocked_matvec(a: NDArray[np.float32], x: NDArray[np.float32], rows: int = 12) -> NDArray[np.float32]:
    m = a.shape[0]
    bounds = list(range(0, m, rows)) + [m]
    streams = [nx.stream() for _ in bounds[:-1]]
    d_x = nx.device_array(x.size, np.float32)
    d_a = nx.device_array(a.shape, np.float32)
    streams[0].upload_staged(x, to=d_x)
    streams[0].upload_staged(a, to=d_a)
    d_y = nx.device_array(m, np.float32)
    y = nx.pinned_array(m, np.float32)
    a_parts = nx.split(d_a, bounds=bounds)
    y_parts = nx.split(d_y, bounds=bounds)
    h_parts = nx.split(y, bounds=bounds)
    downs: list[nx.Transfer[Host]] = []
    for s, da, dy, hp in zip(streams, a_parts, y_parts, h_parts):
        matvec[1, 32, s](da, d_x, dy)
        downs.append(s.download(dy, into=hp))
    for i, t in enumerate(downs[:-1]):
        h_parts[i] = t.wait()
    y = nx.join(h_parts)  # E: use-after-transfer "h_parts"
    out: NDArray[np.float32] = y.read().copy()
    d_a, d_y = nx.join(a_parts), nx.join(y_parts)
    for s in streams:
        s.close()
    return out


if __name__ == "__main__":
    rng = np.random.default_rng(2)
    a = rng.standard_normal((40, 8)).astype(np.float32)
    x = rng.standard_normal(8).astype(np.float32)
    assert np.allclose(blocked_matvec(a, x), a @ x, atol=1e-4)
    print("row blocks ok")
