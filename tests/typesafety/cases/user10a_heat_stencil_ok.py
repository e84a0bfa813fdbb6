# RUN: ok
"""1-D heat equation with an explicit stencil, snapshotted to the host every few steps."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float64]
Dev = nx.DeviceArray[nx.Owned, np.float64]


@cuda.jit
def heat_step(u: Any, u_new: Any, alpha: float) -> None:
    for i in range(cuda.grid(1), u.size, cuda.gridsize(1)):
        if i == 0 or i == u.size - 1:
            u_new[i] = u[i]
        else:
            u_new[i] = u[i] + alpha * (u[i - 1] - 2.0 * u[i] + u[i + 1])


@dataclass
class HeatConfig:
    n: int = 512
    alpha: float = 0.2
    steps: int = 24
    snapshot_every: int = 8


@dataclass
class Snapshot:
    step: int
    total_heat: float
    peak: float


@dataclass
class HeatSolver:
    cfg: HeatConfig
    stream: nx.Stream[nx.Owned] = field(default_factory=nx.stream)
    history: list[Snapshot] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.u: Dev = nx.device_array(self.cfg.n, np.float64)
        self.u_new: Dev = nx.device_array(self.cfg.n, np.float64)
        self.host: Host = nx.pinned_array(self.cfg.n, np.float64)

    def initialise(self) -> None:
        with self.host.write() as a:
            a[:] = 0.0
            a[self.cfg.n // 2 - 8 : self.cfg.n // 2 + 8] = 100.0
        up = self.stream.upload(self.host, to=self.u)
        self.host = up.wait()

    def advance(self) -> None:
        blocks = max(1, self.cfg.n // 256)
        self.stream.launch(heat_step, blocks, 64, self.u, self.u_new, self.cfg.alpha)
        self.u, self.u_new = self.u_new, self.u

    def snapshot(self, step: int) -> None:
        down = self.stream.download(self.u, into=self.host)
        self.host = down.wait()
        values = self.host.read()
        self.history.append(Snapshot(step, float(values.sum()), float(values.max())))

    def run(self) -> list[Snapshot]:
        self.initialise()
        for step in range(1, self.cfg.steps + 1):
            self.advance()
            if step % self.cfg.snapshot_every == 0:
                self.snapshot(step)
        return self.history

    def close(self) -> None:
        self.stream.close()


def main() -> None:
    solver = HeatSolver(HeatConfig())
    history = solver.run()
    solver.close()
    assert len(history) == 3
    for snap in history:
        assert abs(snap.total_heat - 1600.0) < 1e-6, snap
    assert history[0].peak > history[-1].peak
    print("heat:", [(h.step, round(h.peak, 3)) for h in history])


if __name__ == "__main__":
    main()
