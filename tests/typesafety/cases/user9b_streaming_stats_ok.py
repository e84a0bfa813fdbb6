# RUN: ok
"""Streaming mean/variance (Chan's parallel Welford merge) over a sensor feed that is
produced chunk by chunk on the host, squared on the device and reduced on the host."""
from __future__ import annotations

from typing import Any, Iterator

import numpy as np
from numba import cuda

import numbaxfer as nx

CHUNK = 128
F64 = np.float64
Host = nx.PinnedArray[nx.Owned, np.float64]


@cuda.jit
def centre(x: Any, mu: float, out: Any) -> None:
    i = cuda.grid(1)
    if i < x.size:
        d = x[i] - mu
        out[i] = d * d


class Welford:
    def __init__(self) -> None:
        self.n, self.mean, self.m2 = 0, 0.0, 0.0

    def merge(self, n: int, mean: float, m2: float) -> None:
        tot = self.n + n
        delta = mean - self.mean
        self.mean += delta * n / tot
        self.m2 += m2 + delta * delta * self.n * n / tot
        self.n = tot


def feed(chunks: int, seed: int) -> Iterator[np.ndarray[Any, Any]]:
    rng = np.random.default_rng(seed)
    for k in range(chunks):
        yield rng.normal(10.0 + 0.1 * k, 2.0, CHUNK)


def main(chunks: int = 6) -> None:
    s = nx.stream()
    x_h, sq_h = nx.pinned_array(CHUNK, F64), nx.pinned_array(CHUNK, F64)
    x_d, sq_d = nx.device_array(CHUNK, F64), nx.device_array(CHUNK, F64)
    stats = Welford()
    everything: list[np.ndarray[Any, Any]] = []
    for raw in feed(chunks, seed=11):
        with x_h.write() as a:
            a[:] = raw
        with x_h.lend() as view:
            mu = float(view.read().mean())
        up = s.upload(x_h, to=x_d)
        s.launch(centre, 2, 64, x_d, mu, sq_d)
        down = s.download(sq_d, into=sq_h)
        x_h, sq_h = up.wait(), down.wait()
        stats.merge(CHUNK, mu, float(sq_h.read().sum()))
        everything.append(raw)
    ref = np.concatenate(everything)
    var = stats.m2 / (stats.n - 1)
    print(f"n={stats.n} mean={stats.mean:.5f} var={var:.5f} (numpy {ref.var(ddof=1):.5f})")
    assert abs(var - ref.var(ddof=1)) < 1e-8
    s.close()


if __name__ == "__main__":
    main()
