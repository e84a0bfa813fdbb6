# RUN: raises StreamClosedError via-call
# Planted bug: restart() closes the stream but forgets to open a new one, so the next block enqueues its upload on the closed stream.
"""A sweep worker that owns a stream and restarts itself between parameter blocks:
restart() closes the old stream and opens a fresh one before the next block."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx


@cuda.jit
def powers(x: Any, p: float) -> None:
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        x[i] = x[i] ** p


@dataclass
class Worker:
    n: int
    stream: nx.Stream[nx.Owned] = field(default_factory=nx.stream)
    results: dict[float, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.dev = nx.device_array(self.n, np.float64)
        self.host = nx.pinned_copy(np.linspace(1.0, 2.0, self.n))

    def evaluate(self, p: float) -> None:
        base = np.linspace(1.0, 2.0, self.n)
        with self.host.write() as a:
            a[:] = base
        self.host = self.stream.upload(self.host, to=self.dev).wait()
        self.stream.launch(powers, 1, 64, self.dev, p)
        self.host = self.stream.download(self.dev, into=self.host).wait()
        self.results[p] = float(self.host.read().mean())

    def restart(self) -> None:
        self.stream.synchronize()
        self.stream.close()

    def shutdown(self) -> None:
        self.stream.close()


def main() -> None:
    blocks = [[1.0, 2.0], [3.0, 0.5]]
    w = Worker(256)
    for i, block in enumerate(blocks):
        if i:
            w.restart()  # E: use-after-transfer
        for p in block:
            w.evaluate(p)  # E: use-after-transfer
    w.shutdown()  # E: use-after-transfer
    x = np.linspace(1.0, 2.0, 256)
    for p, v in w.results.items():
        assert abs(v - float((x**p).mean())) < 1e-12, p
    print("means:", {p: round(v, 4) for p, v in w.results.items()})


if __name__ == "__main__":
    main()
