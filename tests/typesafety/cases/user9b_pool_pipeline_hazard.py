# RUN: raises UseAfterTransferError
# Planted bug: the result buffer is given back to the pool before its peak value is read.
"""Signal-denoising pipeline over a stream of frames with an event-gated pinned pool:
input buffers are recycled with their upload, output buffers given back once read."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

N = 64
F32 = np.float32
Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def soft_threshold(x: Any, y: Any, lam: float) -> None:
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        if v > lam:
            y[i] = v - lam
        elif v < -lam:
            y[i] = v + lam
        else:
            y[i] = 0.0


def denoise_frame(s: nx.Stream[nx.Owned], pool: nx.PinnedPool[np.float32], frame: np.ndarray[Any, Any],
                  x_d: nx.DeviceArray[nx.Owned, np.float32], y_d: nx.DeviceArray[nx.Owned, np.float32]) -> Host:
    inp = pool.take()
    with inp.write() as a:
        a[:] = frame
    pool.recycle(s.upload(inp, to=x_d))
    s.launch(soft_threshold, 1, N, x_d, y_d, 0.5)
    return s.download(y_d, into=pool.take()).wait()


def main(frames: int = 10) -> None:
    rng = np.random.default_rng(8)
    clean = np.where(np.arange(N) % 8 == 0, 3.0, 0.0)
    pool = nx.PinnedPool(3, N, F32)
    s = nx.stream()
    x_d, y_d = nx.device_array(N, F32), nx.device_array(N, F32)
    sparsity: list[int] = []
    peak: list[float] = []
    for _ in range(frames):
        noisy = (clean + rng.normal(0.0, 0.15, N)).astype(F32)
        res = denoise_frame(s, pool, noisy, x_d, y_d)
        v = res.read()
        sparsity.append(int(np.count_nonzero(v)))
        pool.give(res)
        peak.append(float(res.read().max()))  # E: use-after-transfer
    pool.drain()
    print(f"nonzeros per frame {sparsity}, mean peak {np.mean(peak):.3f}")
    assert max(sparsity) <= N // 8 + 2
    s.close()


if __name__ == "__main__":
    main()
