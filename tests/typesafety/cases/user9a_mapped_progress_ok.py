# RUN: ok
"""A long-running particle kernel that reports progress through mapped host memory."""
from __future__ import annotations

import logging
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

log = logging.getLogger("particles")
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def advance(pos: Any, vel: Any, progress: Any, steps: int) -> None:
    for i in range(cuda.grid(1), pos.size, cuda.gridsize(1)):
        for _ in range(steps):
            pos[i] += 0.01 * vel[i]
        cuda.atomic.add(progress, 0, 1.0)


class ParticleRun:
    def __init__(self, n: int) -> None:
        self.stream = nx.stream()
        self.pos: Dev = nx.device_array(n, np.float32)
        self.vel: Dev = nx.device_array(n, np.float32)
        self.stream.upload_staged(np.zeros(n, np.float32), to=self.pos)
        self.stream.upload_staged(np.ones(n, np.float32), to=self.vel)
        self.progress = nx.mapped_array(1, np.float32)

    def step(self, steps: int) -> float:
        with self.progress.write() as p:
            p[:] = 0.0
        mapping = self.stream.map(self.progress)
        self.stream.launch(advance, 1, 32, self.pos, self.vel, mapping.device, steps)
        log.debug("progress so far: %s", mapping.racy_peek()[0])
        self.progress = mapping.wait()
        return float(self.progress.read()[0])

    def positions(self) -> np.ndarray[Any, np.dtype[np.float32]]:
        out = nx.pinned_array(self.pos.size, np.float32)
        out = self.stream.download(self.pos, into=out).wait()
        return out.read().copy()

    def close(self) -> None:
        self.stream.close()


def main() -> None:
    run = ParticleRun(32)
    touched = [run.step(5) for _ in range(3)]
    pos = run.positions()
    run.close()
    assert touched == [32.0, 32.0, 32.0], touched
    assert np.allclose(pos, 0.15, atol=1e-5)
    print(f"particles at {pos[0]:.3f}")


if __name__ == "__main__":
    main()
