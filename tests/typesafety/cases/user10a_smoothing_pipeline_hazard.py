# RUN: raises UseAfterTransferError
# Planted bug: the reference is computed from the source trace right after pipe.map() moved it into the run, before run.wait().
"""Chunked exponential smoothing of a long sensor trace with nx.Pipeline; the per-chunk
step is a functools.partial that fixes the smoothing gain."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def blend(src: Any, dst: Any, gain: float) -> None:
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        left = src[i - 1] if i > 0 else src[i]
        dst[i] = gain * src[i] + (1.0 - gain) * left


def smooth_step(s: nx.Stream[nx.Lent], chunk_in: Dev, chunk_out: Dev, *, gain: float) -> None:
    s.launch(blend, 1, 64, chunk_in, chunk_out, gain)


@dataclass
class TraceConfig:
    total: int = 2000
    chunk: int = 512
    gain: float = 0.75


def make_trace(cfg: TraceConfig) -> nx.PinnedArray[nx.Owned, np.float32]:
    t = np.arange(cfg.total, dtype=np.float32)
    trace = nx.pinned_array(cfg.total, np.float32)
    with trace.write() as a:
        a[:] = np.sin(t * 0.01) + 0.1 * np.cos(t * 3.0)
    return trace


def reference(x: np.ndarray[Any, np.dtype[np.float32]], cfg: TraceConfig) -> np.ndarray[Any, np.dtype[np.float32]]:
    out = np.empty_like(x)
    for start in range(0, x.size, cfg.chunk):
        c = x[start : start + cfg.chunk]
        left = np.concatenate([c[:1], c[:-1]])
        out[start : start + cfg.chunk] = cfg.gain * c + (1.0 - cfg.gain) * left
    return out


def main() -> None:
    cfg = TraceConfig()
    src = make_trace(cfg)
    dst = nx.pinned_array(cfg.total, np.float32)
    pipe = nx.Pipeline(cfg.chunk, np.float32, slots=2)
    step = functools.partial(smooth_step, gain=cfg.gain)
    run = pipe.map(src, into=dst, step=step)
    expected = reference(src.read(), cfg)  # E: use-after-transfer
    src, dst = run.wait()
    pipe.close()
    assert np.allclose(dst.read(), expected, atol=1e-6)
    print(f"smoothed {cfg.total} samples in chunks of {cfg.chunk}: max {dst.read().max():.3f}")


if __name__ == "__main__":
    main()
