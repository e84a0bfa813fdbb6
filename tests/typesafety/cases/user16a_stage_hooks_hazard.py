# RUN: raises UseAfterTransferError via-call
# XFAIL: miss (line 79): the hook runs after feed() moved self.host into the upload
# Planted bug: the hook runs after feed() moved self.host into the upload
"""Processing stages built on a small class hierarchy.

`Stage.feed()` is a template method: `prepare()` fills the pinned input, the upload,
kernel and chained download are enqueued, then `after_enqueue()` runs while the copies
are in flight (for bookkeeping that does not touch the buffer). `WatermarkStage` stamps
the frame number into element 0 of every frame, so the output can be matched to its
input downstream.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def brighten(src: Any, dst: Any, offset: float) -> None:
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        dst[i] = src[i] + offset if i > 0 else src[i]


class Stage:
    offset = 1.0

    def __init__(self, n: int) -> None:
        self.stream = nx.stream()
        self.host: Host = nx.pinned_array(n, np.float32)
        self.dev_in = nx.device_array(n, np.float32)
        self.dev_out = nx.device_array(n, np.float32)
        self.inflight: nx.Transfer[Host] | None = None
        self.outputs: list[NDArray[np.float32]] = []
        self.frame = 0

    def prepare(self, data: NDArray[np.float32]) -> None:
        with self.host.write() as a:
            a[:] = data

    def after_enqueue(self) -> None:
        pass

    def _complete(self) -> None:
        if self.inflight is not None:
            self.host = self.inflight.wait()
            self.inflight = None
            self.outputs.append(self.host.read().copy())

    def feed(self, data: NDArray[np.float32]) -> None:
        self._complete()
        self.prepare(data)
        up = self.stream.upload(self.host, to=self.dev_in)
        self.stream.launch(brighten, 2, 64, self.dev_in, self.dev_out, self.offset)
        self.inflight = self.stream.download(self.dev_out, into=up)
        self.after_enqueue()
        self.frame += 1

    def close(self) -> None:
        self._complete()
        self.stream.close()


class WatermarkStage(Stage):
    offset = 0.5

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.stamped: list[int] = []

    def after_enqueue(self) -> None:
        with self.host.write() as a:  # E: use-after-transfer
            a[0] = float(self.frame)
        self.stamped.append(self.frame)


def main() -> None:
    n, frames = 300, 4
    rng = np.random.default_rng(5)
    inputs = [rng.random(n).astype(np.float32) for _ in range(frames)]
    plain, marked = Stage(n), WatermarkStage(n)
    for x in inputs:
        plain.feed(x)
        marked.feed(x)
    plain.close()
    marked.close()
    for k, x in enumerate(inputs):
        expect = x + np.float32(1.0)
        expect[0] = x[0]
        assert np.array_equal(plain.outputs[k], expect), k
        assert marked.outputs[k][0] == float(k)
        assert np.array_equal(marked.outputs[k][1:], x[1:] + np.float32(0.5)), k
    assert marked.stamped == list(range(frames))
    print("stage_hooks: ok", len(plain.outputs), len(marked.outputs))


if __name__ == "__main__":
    main()
