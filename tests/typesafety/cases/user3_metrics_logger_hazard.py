# A metrics object for a training loop: record() downloads the step's loss vector into
# its pinned buffer, sync() takes it back, summary() reads it; __repr__ shows only
# metadata, so it may be logged at any time.
# The bugs: __repr__ was extended to show the last loss (a read of the pinned buffer) and
# is logged while the download owns it; summary() is printed before sync().
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def losses(out: Any, step: int) -> None:
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        out[i] = 1.0 / (step + 1) + 0.001 * i


class StepMetrics:
    def __init__(self, s: nx.Stream[nx.Owned], n: int) -> None:
        self.s = s
        self.host: Host = nx.pinned_array(n, np.float32)
        self.pending: nx.Transfer[Host] | None = None
        self.step = 0
        self.history: list[float] = []

    def record(self, dev: Dev) -> None:
        self.pending = self.s.download(dev, into=self.host)
        self.step += 1

    def sync(self) -> None:
        if self.pending is not None:
            self.host = self.pending.wait()
            self.pending = None
            self.history.append(float(self.host.read().mean()))

    def summary(self) -> str:
        v = self.host.read()
        return f"step {self.step}: mean {v.mean():.4f} max {v.max():.4f}"

    def __repr__(self) -> str:
        state = "pending" if self.pending is not None else "home"
        return f"StepMetrics(step={self.step}, last={self.host.read()[-1]:.4f}, {state})"


def main(steps: int = 3, n: int = 32) -> None:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    metrics = StepMetrics(s, n)
    for step in range(steps):
        s.launch(losses, 1, 32, dev, step)
        metrics.record(dev)
        print(f"queued {metrics!r}")  # E: use-after-transfer "metrics.host"
        print(metrics.summary())  # E: use-after-transfer "metrics.host"
        metrics.sync()
    s.close()
    assert metrics.history[0] > metrics.history[-1]


if __name__ == "__main__":
    main()
