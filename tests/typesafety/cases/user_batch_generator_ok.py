# A generator that streams a numpy dataset through the GPU batch by batch: each batch
# is written into one pinned buffer, uploaded, normalised by a kernel, and downloaded
# back into the same buffer by chaining the download onto the upload; the generator
# yields the buffer once it is home, and the caller only reads it.
# RUN: ok
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def normalise(a: Any, mean: float, inv_std: float) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] = (a[i] - mean) * inv_std


def batches(
    data: NDArray[np.float32], n: int, s: nx.Stream[nx.Owned], mean: float, std: float
) -> Iterator[Host]:
    host = nx.pinned_array(n, np.float32)
    dev = nx.device_array(n, np.float32)
    try:
        for lo in range(0, len(data) - n + 1, n):
            with host.write() as a:
                a[:] = data[lo : lo + n]
            up = s.upload(host, to=dev)
            s.launch(normalise, 1, n, dev, mean, 1.0 / std)
            down = s.download(dev, into=up)
            host = down.wait()
            yield host
    finally:
        dev.free()


def main(n: int = 16, count: int = 4) -> list[float]:
    rng = np.random.default_rng(0)
    data = rng.normal(3.0, 2.0, n * count).astype(np.float32)
    s = nx.stream()
    means = []
    for batch in batches(data, n, s, 3.0, 2.0):
        means.append(float(batch.read().mean()))
    s.close()
    expected = [float(((data[k * n : (k + 1) * n] - 3.0) / 2.0).mean()) for k in range(count)]
    assert np.allclose(means, expected, atol=1e-5), (means, expected)
    return means


main()
