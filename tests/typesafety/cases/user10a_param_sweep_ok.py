# RUN: ok
"""A parameter sweep of a logistic-growth model: one device run per growth rate, the
final populations come back into per-parameter pinned buffers kept in a dict."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float64]
Dev = nx.DeviceArray[nx.Owned, np.float64]


@cuda.jit
def logistic(pop: Any, rate: float, capacity: float, steps: int) -> None:
    for i in range(cuda.grid(1), pop.size, cuda.gridsize(1)):
        p = pop[i]
        for _ in range(steps):
            p = p + rate * p * (1.0 - p / capacity)
        pop[i] = p


@dataclass(frozen=True)
class SweepPoint:
    rate: float
    capacity: float = 10.0
    steps: int = 40


@dataclass
class SweepResult:
    point: SweepPoint
    mean: float
    spread: float


class Sweep:
    def __init__(self, n: int, points: list[SweepPoint]) -> None:
        self.n = n
        self.points = points
        self.s = nx.stream()
        self.dev: Dev = nx.device_array(n, np.float64)
        self.buffers: dict[SweepPoint, Host] = {p: nx.pinned_array(n, np.float64) for p in points}

    def seed(self, buf: Host) -> None:
        with buf.write() as a:
            a[:] = np.linspace(0.1, 2.0, self.n)

    def run_point(self, point: SweepPoint) -> None:
        buf = self.buffers.pop(point)
        self.seed(buf)
        buf = self.s.upload(buf, to=self.dev).wait()
        self.s.launch(logistic, 1, 64, self.dev, point.rate, point.capacity, point.steps)
        self.buffers[point] = self.s.download(self.dev, into=buf).wait()

    def summarise(self) -> list[SweepResult]:
        results = []
        for point, buf in self.buffers.items():
            with buf.lend() as view:
                data = view.read()
                results.append(SweepResult(point, float(data.mean()), float(np.ptp(data))))
        return results

    def close(self) -> None:
        self.s.close()
        for buf in self.buffers.values():
            buf.free()


def main() -> None:
    points = [SweepPoint(r) for r in (0.05, 0.1, 0.2, 0.4)]
    sweep = Sweep(256, points)
    try:
        for p in points:
            sweep.run_point(p)
        results = sweep.summarise()
    finally:
        sweep.close()
    means = [r.mean for r in results]
    assert means == sorted(means), means
    assert results[-1].spread < results[0].spread
    for r in results:
        print(f"rate={r.point.rate:.2f} mean={r.mean:.3f} spread={r.spread:.3f}")


if __name__ == "__main__":
    main()
