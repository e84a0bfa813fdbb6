# RUN: ok
"""Denoise two numpy arrays in place, pinning them for the copies with nx.pinned."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx


@nx.kernel(reads=["src"], writes=["dst"])
@cuda.jit
def clip_diff(src: Any, dst: Any, limit: float) -> None:
    for i in range(cuda.grid(1), dst.size, cuda.gridsize(1)):
        d = dst[i] - src[i]
        if d > limit:
            d = limit
        if d < -limit:
            d = -limit
        dst[i] = src[i] + d


def denoise_pair(ref: NDArray[np.float32], noisy: NDArray[np.float32], limit: float) -> tuple[float, float]:
    s = nx.stream()
    d_ref = nx.device_array(ref.shape, ref.dtype)
    d_noisy = nx.device_array(noisy.shape, noisy.dtype)
    try:
        with nx.pinned(ref, noisy) as (h_ref, h_noisy):
            up_ref = s.upload(h_ref, to=d_ref)
            up_noisy = s.upload(h_noisy, to=d_noisy)
            clip_diff[1, 64, s](d_ref, d_noisy, limit)
            h_ref = up_ref.wait()
            h_noisy = up_noisy.wait()
            h_noisy = s.download(d_noisy, into=h_noisy).wait()
            err = float(np.abs(h_noisy.read() - h_ref.read()).max())
            mean = float(h_noisy.read().mean())
        return err, mean
    finally:
        d_ref.free()
        d_noisy.free()
        s.close()


def main(n: int = 256) -> tuple[float, float]:
    rng = np.random.default_rng(11)
    ref = np.linspace(0.0, 1.0, n, dtype=np.float32)
    noisy = (ref + rng.normal(0.0, 0.3, n)).astype(np.float32)
    err, mean = denoise_pair(ref, noisy, 0.1)
    assert err <= 0.1 + 1e-6, err
    assert np.all(np.abs(noisy - ref) <= 0.1 + 1e-6)
    return err, mean


if __name__ == "__main__":
    main()
