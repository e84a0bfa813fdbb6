# 1-D k-means: the points are uploaded once; every iteration the host writes the current
# centroids into a pinned buffer and uploads them, a kernel assigns each point to its
# nearest centroid, and the labels come back into a pinned buffer from which the host
# computes the new centroids. With verbose=True the cluster sizes are printed.
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx


@cuda.jit
def assign(x: Any, cent: Any, labels: Any) -> None:
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        best = 0
        bd = abs(x[i] - cent[0])
        for c in range(1, cent.size):
            d = abs(x[i] - cent[c])
            if d < bd:
                bd = d
                best = c
        labels[i] = best


def kmeans(points: NDArray[np.float32], init: list[float], iters: int = 10, verbose: bool = False) -> NDArray[np.float32]:
    k, n = len(init), points.size
    s = nx.stream()
    d_x = nx.device_array(n, np.float32)
    s.upload_staged(points, to=d_x)
    d_cent = nx.device_array(k, np.float32)
    d_labels = nx.device_array(n, np.int32)
    cent = nx.pinned_array(k, np.float32)
    labels = nx.pinned_array(n, np.int32)
    centroids = np.array(init, np.float32)
    for _ in range(iters):
        with cent.write() as a:
            a[:] = centroids
        up = s.upload(cent, to=d_cent)
        s.launch(assign, 1, 32, d_x, d_cent, d_labels)
        down = s.download(d_labels, into=labels)
        cent = up.wait()
        labels = down.wait()
        if verbose:
            print("sizes", np.bincount(labels.read(), minlength=k))
        lab = labels.read()
        new = np.array([points[lab == c].mean() if (lab == c).any() else centroids[c] for c in range(k)], np.float32)
        if np.array_equal(new, centroids):
            break
        centroids = new
    s.close()
    return centroids


if __name__ == "__main__":
    pts = np.concatenate([np.full(16, 1.0), np.full(16, 5.0), np.full(16, 9.0)]).astype(np.float32)
    got = kmeans(pts, [0.0, 4.0, 10.0], verbose=True)
    assert np.allclose(got, [1.0, 5.0, 9.0]), got
    print("kmeans ok")
