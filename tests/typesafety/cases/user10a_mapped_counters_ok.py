# RUN: ok
"""Rejection-sampling tallies in mapped (zero-copy) memory: each pass of the kernel adds
its accepted counts into a mapped tally array that the host reads after mp.wait()."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx


@cuda.jit
def tally(samples: Any, counts: Any, threshold: float) -> None:
    for b in range(cuda.grid(1), counts.size, cuda.gridsize(1)):
        per = samples.size // counts.size
        c = 0
        for j in range(b * per, (b + 1) * per):
            if samples[j] < threshold:
                c += 1
        counts[b] += c


@dataclass
class TallyConfig:
    n: int = 1024
    lanes: int = 8
    passes: int = 3
    threshold: float = 0.25


def run_tallies(cfg: TallyConfig) -> np.ndarray[Any, np.dtype[np.int64]]:
    s = nx.stream()
    rng = np.random.default_rng(11)
    d_samples = nx.device_array(cfg.n, np.float32)
    counts = nx.mapped_array(cfg.lanes, np.int64)
    with counts.write() as c:
        c[:] = 0
    staging = nx.pinned_array(cfg.n, np.float32)
    mp = s.map(counts)
    for _ in range(cfg.passes):
        with staging.write() as a:
            a[:] = rng.random(cfg.n, dtype=np.float32)
        staging = s.upload(staging, to=d_samples).wait()
        s.launch(tally, 1, 8, d_samples, mp.device, cfg.threshold)
    counts = mp.wait()
    result = counts.read().copy()
    s.close()
    return result


def main() -> None:
    cfg = TallyConfig()
    result = run_tallies(cfg)
    total = int(result.sum())
    expected = cfg.passes * cfg.n * cfg.threshold
    assert abs(total - expected) < 0.1 * expected, total
    print(f"accepted {total} of {cfg.passes * cfg.n}; per lane {result.tolist()}")


if __name__ == "__main__":
    main()
