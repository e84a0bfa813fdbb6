# An ensemble with per-model output parts of one pinned array (see
# user5_ensemble_split_ok.py). The bug, kind "waited but not rebound": the downloads are
# waited in a loop that drops what wait() returns, and the parts joined are the names
# the downloads took.
# RUN: raises UseAfterTransferError
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@nx.kernel(reads=["x", "w"], writes=["y"])
@cuda.jit
def predict(x: Any, w: Any, y: Any) -> None:
    for i in range(cuda.grid(1), y.shape[1], cuda.gridsize(1)):
        y[0, i] = w[0] * x[i] + w[1]


def ensemble(x: NDArray[np.float32], weights: list[tuple[float, float]]) -> NDArray[np.float32]:
    k, n = len(weights), x.size
    streams = [nx.stream() for _ in range(k)]
    d_x = nx.device_array(n, np.float32)
    host_x = nx.pinned_copy(x)
    up = streams[0].upload(host_x, to=d_x)
    d_w = [nx.device_array(2, np.float32) for _ in range(k)]
    d_y = [nx.device_array((1, n), np.float32) for _ in range(k)]
    out = nx.pinned_array((k, n), np.float32)
    parts = nx.split(out, k)
    downs: list[nx.Transfer[Host]] = []
    for s, w, dw, dy, part in zip(streams, weights, d_w, d_y, parts):
        s.upload_staged(np.array(w, np.float32), to=dw)
        predict[1, 32, s](d_x, dw, dy)  # on another stream: ordered after the upload
        downs.append(s.download(dy, into=part))
    host_x = up.wait()
    for t in downs:
        t.wait()
    out = nx.join(parts)  # E: use-after-transfer "parts"
    mean: NDArray[np.float32] = out.read().mean(axis=0)
    for s in streams:
        s.close()
    return mean


if __name__ == "__main__":
    x = np.linspace(0, 1, 32, dtype=np.float32)
    w = [(1.0, 0.0), (2.0, 1.0), (3.0, -1.0)]
    assert np.allclose(ensemble(x, w), 2.0 * x, atol=1e-6)
    print("ensemble ok")
