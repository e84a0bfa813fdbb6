# RUN: raises BorrowError
# Planted bug: the checkpoint writer keeps the lent view of the snapshot as an attribute and reads it again after the lend block has ended.
"""A damped oscillator lattice with periodic checkpoints: the state is downloaded into a
pinned snapshot, and a checkpoint writer serialises a read-only lent view of it."""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def leapfrog(x: Any, v: Any, dt: float, damping: float) -> None:
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        v[i] = (1.0 - damping) * v[i] - dt * x[i]
        x[i] = x[i] + dt * v[i]


@dataclass
class SimState:
    step: int
    snapshot: Host


@dataclass
class CheckpointWriter:
    sink: io.BytesIO = field(default_factory=io.BytesIO)
    offsets: list[int] = field(default_factory=list)
    last_norm: float = 0.0
    last_view: nx.PinnedArray[nx.Lent, np.float32] | None = None

    def write(self, step: int, view: nx.PinnedArray[nx.Lent, np.float32]) -> None:
        self.last_view = view
        data = view.read()
        self.offsets.append(self.sink.tell())
        np.save(self.sink, data)
        self.last_norm = float(np.linalg.norm(data))


class Oscillators:
    def __init__(self, n: int) -> None:
        self.s = nx.stream()
        self.x = nx.device_array(n, np.float32)
        self.v = nx.device_array(n, np.float32)
        init = nx.pinned_copy(np.cos(np.linspace(0, 3, n)).astype(np.float32))
        init = self.s.upload(init, to=self.x).wait()
        with init.write() as a:
            a[:] = 0.0
        self.state = SimState(0, self.s.upload(init, to=self.v).wait())

    def advance(self, steps: int) -> None:
        for _ in range(steps):
            self.s.launch(leapfrog, 1, 64, self.x, self.v, 0.05, 0.01)
        self.state.step += steps

    def checkpoint(self, writer: CheckpointWriter) -> None:
        down = self.s.download(self.x, into=self.state.snapshot)
        self.state.snapshot = down.wait()
        with self.state.snapshot.lend() as view:
            writer.write(self.state.step, view)


def main() -> None:
    sim = Oscillators(256)
    writer = CheckpointWriter()
    try:
        for _ in range(4):
            sim.advance(5)
            sim.checkpoint(writer)
    finally:
        sim.s.close()
    assert len(writer.offsets) == 4
    if writer.last_view is not None:  # E: lend-escape
        print("last checkpoint head:", writer.last_view.read()[:3])  # E: lend-escape
    writer.sink.seek(writer.offsets[-1])
    restored = np.load(writer.sink)
    assert restored.shape == (256,)
    assert abs(float(np.linalg.norm(restored)) - writer.last_norm) < 1e-4
    print(f"checkpoints: {len(writer.offsets)}, last norm {writer.last_norm:.4f}")


if __name__ == "__main__":
    main()
