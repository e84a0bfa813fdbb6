# A particle simulation in structure-of-arrays form: a dataclass of device arrays (x, y,
# vx, vy) integrated by a kernel, and a dataclass host mirror of pinned arrays for the
# positions. snapshot() downloads both positions into the mirror and returns the centre
# of mass; the initial state is uploaded from the mirror.
# RUN: ok
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def integrate(x: Any, y: Any, vx: Any, vy: Any, dt: float) -> None:
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        vy[i] -= 9.81 * dt
        x[i] += vx[i] * dt
        y[i] += vy[i] * dt


@dataclass
class DeviceParticles:
    x: Dev
    y: Dev
    vx: Dev
    vy: Dev


@dataclass
class HostMirror:
    x: Host
    y: Host


class Simulation:
    def __init__(self, n: int, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.s = nx.stream()
        self.dev = DeviceParticles(*(nx.device_array(n, np.float32) for _ in range(4)))
        self.host = HostMirror(nx.pinned_array(n, np.float32), nx.pinned_array(n, np.float32))
        with self.host.x.write() as hx, self.host.y.write() as hy:
            hx[:] = rng.random(n, dtype=np.float32)
            hy[:] = rng.random(n, dtype=np.float32) + 10.0
        ux = self.s.upload(self.host.x, to=self.dev.x)
        uy = self.s.upload(self.host.y, to=self.dev.y)
        self.s.upload_staged(rng.standard_normal(n).astype(np.float32), to=self.dev.vx)
        self.s.upload_staged(np.zeros(n, np.float32), to=self.dev.vy)
        self.host.x = ux.wait()
        self.host.y = uy.wait()

    def step(self, dt: float) -> None:
        self.s.launch(integrate, 1, 32, self.dev.x, self.dev.y, self.dev.vx, self.dev.vy, dt)

    def snapshot(self) -> tuple[float, float]:
        dx = self.s.download(self.dev.x, into=self.host.x)
        dy = self.s.download(self.dev.y, into=self.host.y)
        self.host.x = dx.wait()
        cx = float(self.host.x.read().mean())
        self.host.y = dy.wait()
        cy = float(self.host.y.read().mean())
        return cx, cy

    def close(self) -> None:
        self.s.close()


def run(steps: int = 20, every: int = 5) -> list[tuple[float, float]]:
    sim = Simulation(64)
    trace = [sim.snapshot()]
    for k in range(1, steps + 1):
        sim.step(0.01)
        if k % every == 0:
            trace.append(sim.snapshot())
    sim.close()
    return trace


if __name__ == "__main__":
    trace = run()
    assert all(b[1] < a[1] for a, b in zip(trace, trace[1:])), trace  # it falls
    print("particles ok")
