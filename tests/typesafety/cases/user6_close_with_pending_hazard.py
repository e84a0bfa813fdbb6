# RUN: raises StreamClosedError
# Reported at the close: shutdown() completes self.pending only after it (the close-before-wait rule).
# Planted bug: shutdown() closes the stream before completing the last download (the
# developer thought close() waits for the stream like synchronize()); close() is refused.
from __future__ import annotations
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def scale(a: Any, factor: float) -> None:
    """``a *= factor`` (grid-stride loop)."""
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] *= factor


class Worker:
    def __init__(self, n: int) -> None:
        self.s = nx.stream()
        self.dev = nx.device_array(n, np.float32)
        self.out: Host | None = nx.pinned_array(n, np.float32)
        self.pending: nx.Transfer[Host] | None = None
        self.history: list[float] = []

    def step(self, value: float) -> None:
        if self.pending is not None:
            self.out = self.pending.wait()
            self.pending = None
            self.history.append(float(self.out.read()[0]))
        self.s.upload_staged(np.full(self.dev.size, value, dtype=np.float32), to=self.dev).wait()
        self.s.launch(scale, 1, 64, self.dev, 10.0)
        assert self.out is not None
        self.pending = self.s.download(self.dev, into=self.out)
        self.out = None

    def shutdown(self) -> list[float]:
        self.s.close()  # E: unfinished-transfer
        if self.pending is not None:
            self.out = self.pending.wait()
            self.pending = None
            self.history.append(float(self.out.read()[0]))
        return self.history


def main() -> list[float]:
    w = Worker(64)
    for v in (1.0, 2.0, 3.0):
        w.step(v)
    history = w.shutdown()
    assert history == [10.0, 20.0, 30.0], history
    return history


if __name__ == "__main__":
    main()
