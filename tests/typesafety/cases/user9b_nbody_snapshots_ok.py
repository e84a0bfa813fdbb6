# RUN: ok
"""Softened 2-D N-body integrator (leapfrog) with a position snapshot every few steps;
each snapshot is summarised (centre of mass, spread) through a read-only lend."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

NB = 32
F64 = np.float64
Host = nx.PinnedArray[nx.Owned, np.float64]


@cuda.jit
def kick_drift(pos: Any, vel: Any, dt: float, eps2: float) -> None:
    i = cuda.grid(1)
    n = pos.size // 2
    if i < n:
        ax, ay = 0.0, 0.0
        for j in range(n):
            dx = pos[2 * j] - pos[2 * i]
            dy = pos[2 * j + 1] - pos[2 * i + 1]
            inv = (dx * dx + dy * dy + eps2) ** -1.5
            ax += dx * inv
            ay += dy * inv
        vel[2 * i] += dt * ax / n
        vel[2 * i + 1] += dt * ay / n
        cuda.syncthreads()
        pos[2 * i] += dt * vel[2 * i]
        pos[2 * i + 1] += dt * vel[2 * i + 1]


@dataclass
class SnapshotLog:
    com: list[tuple[float, float]] = field(default_factory=list)
    spread: list[float] = field(default_factory=list)

    def record(self, snap: Host) -> None:
        with snap.lend() as view:
            xy = view.read().reshape(-1, 2)
            cx, cy = xy.mean(axis=0)
            self.com.append((float(cx), float(cy)))
        r = np.hypot(xy[:, 0] - cx, xy[:, 1] - cy)
        self.spread.append(float(r.std()))


def main(steps: int = 30, every: int = 10) -> None:
    rng = np.random.default_rng(3)
    s = nx.stream()
    pos_h = nx.pinned_copy(rng.uniform(-1.0, 1.0, 2 * NB))
    vel_h = nx.pinned_copy(np.zeros(2 * NB))
    pos_d, vel_d = nx.device_array(2 * NB, F64), nx.device_array(2 * NB, F64)
    t_pos, t_vel = s.upload(pos_h, to=pos_d), s.upload(vel_h, to=vel_d)
    pos_h, vel_h = t_pos.wait(), t_vel.wait()
    log = SnapshotLog()
    for step in range(1, steps + 1):
        s.launch(kick_drift, 1, NB, pos_d, vel_d, 0.01, 0.05)
        if step % every == 0:
            pos_h = s.download(pos_d, into=pos_h).wait()
            log.record(pos_h)
    for (cx, cy), sp in zip(log.com, log.spread):
        print(f"com=({cx:+.4f}, {cy:+.4f}) spread={sp:.4f}")
    s.close()


if __name__ == "__main__":
    main()
