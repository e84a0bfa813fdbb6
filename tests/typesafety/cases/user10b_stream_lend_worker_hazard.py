# RUN: raises BorrowError via-call
# Planted bug: epoch() drains the workers after the stream's lend block has ended, so each worker enqueues through a lent stream that is no longer valid.
"""Coordinator lending its stream to stage workers for one epoch.

The Coordinator owns the only ``Stream[Owned]``; per epoch it lends the stream to each
StageWorker (``attach``), the workers enqueue their uploads and kernels, and every
worker's ``drain`` downloads and completes its results while the lend is still open.
Only the coordinator closes the stream.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
LentStream = nx.Stream[nx.Lent]


@cuda.jit
def stage_kernel(a: Any, k: float) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] * k + 1.0


@dataclass
class StageWorker:
    name: str
    factor: float
    width: int
    stream: LentStream | None = None
    results: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.dev = nx.device_array(self.width, np.float32)
        self.buf: Host = nx.pinned_array(self.width, np.float32)

    def attach(self, ls: LentStream) -> None:
        self.stream = ls

    def submit(self, value: float) -> None:
        assert self.stream is not None
        with self.buf.write() as view:
            view[:] = value
        self.buf = self.stream.upload(self.buf, to=self.dev).wait()
        self.stream.launch(stage_kernel, (self.width + 63) // 64, 64, self.dev, self.factor)

    def drain(self) -> None:
        assert self.stream is not None
        self.buf = self.stream.download(self.dev, into=self.buf).wait()
        self.results.append(float(self.buf.read()[0]))

    def detach(self) -> None:
        self.stream = None


class Coordinator:
    def __init__(self, workers: list[StageWorker]) -> None:
        self.stream = nx.stream()
        self.workers = workers

    def epoch(self, value: float) -> None:
        with self.stream.lend() as ls:
            for w in self.workers:
                w.attach(ls)
                w.submit(value)
        for w in self.workers:
            w.drain()  # E: lend-escape
            w.detach()

    def close(self) -> None:
        self.stream.close()


def main() -> None:
    workers = [StageWorker("a", 2.0, 64), StageWorker("b", 0.5, 64)]
    coord = Coordinator(workers)
    for epoch in range(3):
        coord.epoch(float(epoch))
    coord.close()
    assert workers[0].results == [1.0, 3.0, 5.0], workers[0].results
    assert workers[1].results == [1.0, 1.5, 2.0], workers[1].results
    print("stream_lend_worker ok", workers[0].results, workers[1].results)


if __name__ == "__main__":
    main()
