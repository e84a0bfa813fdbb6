# RUN: raises UseAfterTransferError
# Planted bug: run() peeks at the first result chunk through self.dst before run.wait() has handed the arrays back.
"""Nightly batch scoring through an ``nx.Pipeline``, step built with functools.partial.

``BatchScorer`` holds a pipeline and a pair of pinned arrays (source and results). A
run maps a step over the source chunk by chunk; the step is a module function
specialised with ``functools.partial`` (bias and scale come from the job config).
Results are read only after ``run.wait()`` gives both arrays back.
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def scale_bias(src: Any, dst: Any, scale: float, bias: float) -> None:
    i = cuda.grid(1)
    if i < src.size:
        dst[i] = src[i] * scale + bias


class JobConfig(NamedTuple):
    scale: float
    bias: float
    chunk: int


def step(s: nx.Stream[nx.Lent], chunk_in: Dev, chunk_out: Dev, *, scale: float, bias: float) -> None:
    s.launch(scale_bias, (chunk_in.size + 63) // 64, 64, chunk_in, chunk_out, scale, bias)


class BatchScorer:
    def __init__(self, cfg: JobConfig, total: int) -> None:
        self.cfg = cfg
        self.pipe = nx.Pipeline(cfg.chunk, np.float32, slots=2)
        self.src: Host = nx.pinned_array(total, np.float32)
        self.dst: Host = nx.pinned_array(total, np.float32)
        self.history: list[float] = []

    def load(self, data: np.ndarray[Any, np.dtype[np.float32]]) -> None:
        with self.src.write() as view:
            view[:] = data

    def run(self) -> float:
        bound = functools.partial(step, scale=self.cfg.scale, bias=self.cfg.bias)
        run = self.pipe.map(self.src, into=self.dst, step=bound)
        first = float(self.dst.read()[0])  # E: use-after-transfer
        self.src, self.dst = run.wait()
        assert first == float(self.dst.read()[0])
        total = float(self.dst.read().sum(dtype=np.float64))
        self.history.append(total)
        return total

    def close(self) -> None:
        self.pipe.close()


def main() -> None:
    total = 3000
    cfg = JobConfig(scale=2.0, bias=1.0, chunk=1024)
    scorer = BatchScorer(cfg, total)
    for night in range(2):
        data = np.full(total, float(night), dtype=np.float32)
        scorer.load(data)
        scorer.run()
    scorer.close()
    assert scorer.history == [total * 1.0, total * 3.0], scorer.history
    print("pipeline_batch ok", scorer.history)


if __name__ == "__main__":
    main()
