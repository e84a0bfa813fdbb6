# RUN: raises UseAfterTransferError
# Planted bug: batch_step() records the batch's first sample from the staging buffer after the buffer has gone back to the pool with its upload.
"""Importance-sampling Monte Carlo with a PinnedPool of staging buffers: each batch of
samples is written into a pooled buffer, uploaded, weighted on the device and reduced."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float64]


@cuda.jit
def weight(x: Any, w: Any) -> None:
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        v = x[i]
        # integrand exp(-v^2) over the sampling density of uniform(-3, 3)
        w[i] = 6.0 * 2.718281828459045 ** (-(v * v))


@dataclass
class SamplerStats:
    batches: int = 0
    total: float = 0.0
    sizes: list[int] = field(default_factory=list)

    @property
    def estimate(self) -> float:
        return self.total / sum(self.sizes)


class PooledSampler:
    def __init__(self, batch: int, depth: int = 2, seed: int = 7) -> None:
        self.batch = batch
        self.rng = np.random.default_rng(seed)
        self.s = nx.stream()
        self.staging: nx.PinnedPool[np.float64] = nx.PinnedPool(depth, batch, np.float64)
        self.d_x = nx.device_array(batch, np.float64)
        self.d_w = nx.device_array(batch, np.float64)
        self.out: Host = nx.pinned_array(batch, np.float64)
        self.stats = SamplerStats()

    def fill(self, buf: Host) -> None:
        with buf.write() as a:
            a[:] = self.rng.uniform(-3.0, 3.0, size=a.size)

    def batch_step(self) -> None:
        buf = self.staging.take()
        self.fill(buf)
        self.staging.recycle(self.s.upload(buf, to=self.d_x))
        first = float(buf.read()[0])  # E: use-after-transfer
        assert -3.0 <= first <= 3.0
        self.s.launch(weight, 1, 64, self.d_x, self.d_w)
        self.out = self.s.download(self.d_w, into=self.out).wait()
        self.stats.batches += 1
        self.stats.total += float(self.out.read().sum())
        self.stats.sizes.append(self.batch)

    def close(self) -> None:
        self.staging.drain()
        self.s.close()


def main() -> None:
    sampler = PooledSampler(batch=512)
    try:
        for _ in range(6):
            sampler.batch_step()
    finally:
        sampler.close()
    est = sampler.stats.estimate
    assert abs(est - np.sqrt(np.pi)) < 0.1, est
    print(f"integral of exp(-x^2) ~ {est:.4f} after {sampler.stats.batches} batches")


if __name__ == "__main__":
    main()
