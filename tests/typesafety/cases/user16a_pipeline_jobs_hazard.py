# RUN: warns ResourceWarning anywhere
# XFAIL: miss (line 55): cancelling drops the pending PipelineRun without completing it
# Planted bug: cancelling drops the pending PipelineRun without completing it
"""A batch-scoring service built on `nx.Pipeline`: each request is a pinned copy of the
caller's features, mapped chunk by chunk through a calibration kernel into a pinned
output. One request is in flight at a time; a client may cancel the request in flight
(its result is thrown away) and submit a new one.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def calibrate(src: Any, dst: Any, scale: float, bias: float) -> None:
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        dst[i] = src[i] * scale + bias


class CalibrationService:
    def __init__(self, chunk: int, scale: float, bias: float) -> None:
        self.pipe: nx.Pipeline[np.float32] = nx.Pipeline(chunk, np.float32, slots=2)
        self.scale = scale
        self.bias = bias
        self.run: nx.PipelineRun[np.float32] | None = None
        self.cancelled = 0
        self.completed = 0

    def _step(self, s: nx.Stream[nx.Lent], a: Dev, b: Dev) -> None:
        s.launch(calibrate, 1, 64, a, b, self.scale, self.bias)

    @property
    def busy(self) -> bool:
        return self.run is not None

    def submit(self, features: NDArray[np.float32]) -> None:
        if self.busy:
            raise RuntimeError("a request is already in flight")
        src = nx.pinned_copy(features)
        dst = nx.pinned_array(features.size, np.float32)
        self.run = self.pipe.map(src, into=dst, step=self._step)

    def cancel(self) -> None:
        if self.run is None:
            return
        self.run = None  # E: unfinished-transfer
        self.cancelled += 1

    def result(self) -> NDArray[np.float32]:
        assert self.run is not None
        src, dst = self.run.wait()
        self.run = None
        out: NDArray[np.float32] = dst.read().copy()
        src.free()
        dst.free()
        self.completed += 1
        return out

    def close(self) -> None:
        self.cancel()
        self.pipe.close()


def main() -> None:
    svc = CalibrationService(chunk=128, scale=0.5, bias=2.0)
    first = np.arange(500, dtype=np.float32)
    svc.submit(first)
    svc.cancel()  # the client changed its mind
    second = np.linspace(-1.0, 1.0, 300, dtype=np.float32)
    svc.submit(second)
    got = svc.result()
    svc.close()
    assert np.allclose(got, second * np.float32(0.5) + np.float32(2.0))
    assert (svc.cancelled, svc.completed) == (1, 1)
    assert not svc.busy
    print("pipeline_jobs: ok", round(float(got.sum()), 3))


if __name__ == "__main__":
    main()
