# RUN: ok
"""A GPU session object used as a context manager: it owns a stream and a result buffer;
the last download is still in flight when the block ends, and __exit__ lands it."""
from __future__ import annotations

from types import TracebackType
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float64]
Dev = nx.DeviceArray[nx.Owned, np.float64]


@cuda.jit
def axpy(x: Any, y: Any, alpha: float) -> None:
    i = cuda.grid(1)
    if i < x.size:
        y[i] = alpha * x[i] + y[i]


class GpuSession:
    def __init__(self, n: int) -> None:
        self.n = n
        self.stream = nx.stream()
        self.x: Dev = nx.device_array(n, np.float64)
        self.y: Dev = nx.device_array(n, np.float64)
        self.out: Host | None = nx.pinned_array(n, np.float64)
        self.pending: nx.Transfer[Host] | None = None
        self.final: float | None = None

    def __enter__(self) -> GpuSession:
        self.stream.upload_staged(np.ones(self.n), to=self.x)
        self.stream.upload_staged(np.zeros(self.n), to=self.y)
        return self

    def step(self, alpha: float) -> None:
        self.stream.launch(axpy, 1, self.n, self.x, self.y, alpha)

    def snapshot(self) -> None:
        if self.pending is not None:
            self.out = self.pending.wait()
        out = self.out
        assert out is not None
        self.out = None
        self.pending = self.stream.download(self.y, into=out)

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self.pending is not None:
            self.out = self.pending.wait()
            self.pending = None
        if self.out is not None:
            self.final = float(self.out.read()[0])
        self.stream.close()


def main() -> None:
    with GpuSession(32) as sess:
        for k in range(1, 5):
            sess.step(float(k))
            sess.snapshot()
    assert sess.final == 10.0, sess.final
    print("session ctx: final", sess.final)


if __name__ == "__main__":
    main()
