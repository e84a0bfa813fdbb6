# RUN: raises StreamClosedError
# XFAIL: miss (line 57, silence by design): job.stream.close() before job.upload.wait() on a NamedTuple job; whether the upload was started on job.stream is not known (a job may hold a stream of its own and a transfer started on a shared one), so a close before the wait of a field is reported only where the class itself stores into that field transfers started on that stream
# Planted bug: each job's stream is closed before the job's upload transfer has been completed (the input buffer is only freed afterwards).
"""Parameter sweep of a damped oscillator integrated on the device for many initial
phases; each damping value runs on its own stream and its final energies come back
in a pinned buffer."""
from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np
from numba import cuda

import numbaxfer as nx

M = 64
F64 = np.float64
Host = nx.PinnedArray[nx.Owned, np.float64]


@cuda.jit
def integrate(phase: Any, energy: Any, gamma: float, steps: int, dt: float) -> None:
    i = cuda.grid(1)
    if i < phase.size:
        x, v = math.cos(phase[i]), 0.0
        for _ in range(steps):
            a = -x - gamma * v
            v += dt * a
            x += dt * v
        energy[i] = 0.5 * (x * x + v * v)


class Job(NamedTuple):
    gamma: float
    stream: nx.Stream[nx.Owned]
    result: nx.Transfer[Host]
    upload: nx.Transfer[Host]


def submit(gamma: float, phases: np.ndarray[Any, Any]) -> Job:
    s = nx.stream()
    ph_h = nx.pinned_copy(phases)
    ph_d, en_d = nx.device_array(M, F64), nx.device_array(M, F64)
    up = s.upload(ph_h, to=ph_d)
    s.launch(integrate, 1, M, ph_d, en_d, gamma, 200, 0.02)
    down = s.download(en_d, into=nx.pinned_array(M, F64))
    return Job(gamma, s, down, up)


def main() -> None:
    phases = np.linspace(0.0, np.pi, M)
    jobs = [submit(g, phases) for g in (0.0, 0.1, 0.5, 1.0)]
    summary: dict[float, float] = {}
    for job in jobs:
        energies = job.result.wait()
        summary[job.gamma] = float(energies.read().mean())
        job.stream.close()  # E: unfinished-transfer
        job.upload.wait().free()
        energies.free()
    for g, e in summary.items():
        print(f"gamma={g:.2f}: mean final energy {e:.5f}")
    assert summary[1.0] < summary[0.0]


if __name__ == "__main__":
    main()
