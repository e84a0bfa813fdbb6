# RUN: raises UseAfterTransferError
# Planted bug: the retry handler takes the buffer back from the upload again, though that transfer was already completed before maintenance.
"""Batched vector scaling through a ring of streams that is recycled every few uses;
a job that finds its stream closed under it retries the step on a fresh stream."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

N = 64
F32 = np.float32
Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def axpby(x: Any, a: float, b: float) -> None:
    i = cuda.grid(1)
    if i < x.size:
        x[i] = a * x[i] + b


class StreamRing:
    def __init__(self, size: int, max_uses: int) -> None:
        self.streams = [nx.stream() for _ in range(size)]
        self.uses = [0] * size
        self.max_uses = max_uses
        self.turn = 0

    def next(self) -> nx.Stream[nx.Owned]:
        self.turn = (self.turn + 1) % len(self.streams)
        self.uses[self.turn] += 1
        return self.streams[self.turn]

    def maintain(self) -> None:
        for k, s in enumerate(self.streams):
            if self.uses[k] >= self.max_uses:
                s.close()
                self.streams[k], self.uses[k] = nx.stream(), 0

    def close(self) -> None:
        for s in self.streams:
            s.close()


def run_job(ring: StreamRing, host: nx.Consumed[Host], dev: nx.DeviceArray[nx.Owned, np.float32], a: float) -> tuple[Host, int]:
    s = ring.next()
    up = s.upload(host, to=dev)
    s.launch(axpby, 1, N, dev, a, 1.0)
    host = up.wait()
    ring.maintain()
    retries = 0
    while True:
        try:
            host = s.download(dev, into=host).wait()
            return host, retries
        except nx.StreamClosedError:
            retries += 1
            if retries > 2:
                raise
            host = up.wait()  # E: transfer-completed-twice
            s = ring.next()


def main(jobs: int = 8) -> None:
    ring = StreamRing(size=2, max_uses=2)
    dev = nx.device_array(N, F32)
    host = nx.pinned_copy(np.ones(N, F32))
    total_retries = 0
    for j in range(jobs):
        host, r = run_job(ring, host, dev, a=0.5)
        total_retries += r
    v = float(host.read()[0])
    print(f"value after {jobs} jobs: {v:.6f}, retries: {total_retries}")
    assert abs(v - 2.0) < 0.01 and total_retries > 0
    ring.close()


if __name__ == "__main__":
    main()
