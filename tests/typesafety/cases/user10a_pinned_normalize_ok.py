# RUN: ok
"""Normalising columns of a numpy field in place on the GPU: a helper pins the caller's
array with nx.pinned for the duration of the round trip."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx


@cuda.jit
def normalise(a: Any, mean: float, inv_std: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = (a[i] - mean) * inv_std


@dataclass
class FieldStats:
    mean: float
    std: float


def stats_of(a: NDArray[np.float64]) -> FieldStats:
    return FieldStats(float(a.mean()), float(a.std()) or 1.0)


def normalise_in_place(a: NDArray[np.float64], s: nx.Stream[nx.Lent]) -> FieldStats:
    st = stats_of(a)
    dev = nx.device_array(a.shape, a.dtype)
    with nx.pinned(a) as h:
        up = s.upload(h, to=dev)
        s.launch(normalise, 1, 64, dev, st.mean, 1.0 / st.std)
        h = up.wait()
        down = s.download(dev, into=h)
        h = down.wait()
    dev.free()
    return st


def main() -> None:
    rng = np.random.default_rng(3)
    fields = [rng.normal(5.0 * k, 1.0 + k, size=512) for k in range(3)]
    s = nx.stream()
    try:
        seen = [normalise_in_place(f, s) for f in fields]
    finally:
        s.synchronize()
    s.close()
    for f, st in zip(fields, seen):
        assert abs(float(f.mean())) < 1e-9 and abs(float(f.std()) - 1.0) < 1e-9, st
    print("normalised:", [(round(st.mean, 2), round(st.std, 2)) for st in seen])


if __name__ == "__main__":
    main()
