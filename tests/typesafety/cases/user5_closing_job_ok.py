# RUN: ok
# A job class used through contextlib.closing: the job uploads its input in start(),
# result() takes the output back, and close() (called by closing() on every exit)
# completes whatever is still pending and closes the job's stream.
from __future__ import annotations

import contextlib
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def square(a: Any) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = a[i] * a[i]


class SquareJob:
    def __init__(self, data: NDArray[np.float32]) -> None:
        self.s = nx.stream()
        self.buf: Host = nx.pinned_copy(data)
        self.dev = nx.device_array(data.size, np.float32)
        self.pending: nx.Transfer[Host] | None = None

    def start(self) -> None:
        up = self.s.upload(self.buf, to=self.dev)
        self.s.launch(square, 1, 32, self.dev)
        self.pending = self.s.download(self.dev, into=up)

    def result(self) -> NDArray[np.float32]:
        if self.pending is not None:
            self.buf = self.pending.wait()
            self.pending = None
        return self.buf.read().copy()

    def close(self) -> None:
        if self.pending is not None:
            self.buf = self.pending.wait()
            self.pending = None
        self.s.close()


def run(data: NDArray[np.float32]) -> tuple[float, NDArray[np.float32]]:
    with contextlib.closing(SquareJob(data)) as job:
        job.start()
        res = job.result()
        peak = float(job.buf.read().max())
    return peak, res


if __name__ == "__main__":
    peak, res = run(np.arange(32, dtype=np.float32))
    assert peak == 31.0**2 and np.array_equal(res, np.arange(32, dtype=np.float32) ** 2)
    print("closing job ok")
