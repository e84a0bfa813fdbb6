# RUN: ok
"""SGD training loop with a functools.partial learning-rate schedule.

Gradients of a least-squares objective are computed on the host, uploaded each step
and applied on the device by a kernel. Every few steps the weights are downloaded into
a snapshot buffer to log their norm; a dataclass with methods holds the training state.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def sgd_update(w: Any, g: Any, lr: float) -> None:
    for i in range(cuda.grid(1), w.size, cuda.gridsize(1)):
        w[i] -= lr * g[i]


def step_decay(step: int, *, base: float, drop: float, every: int) -> float:
    return base * drop ** (step // every)


@dataclass
class TrainState:
    dim: int
    schedule: Callable[[int], float]
    stream: nx.Stream[nx.Owned] = field(default_factory=nx.stream)
    history: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.weights = nx.device_array(self.dim, np.float32)
        self.grad_dev = nx.device_array(self.dim, np.float32)
        self.grad_host: Host | None = nx.pinned_array(self.dim, np.float32)
        self.snapshot: Host | None = nx.pinned_array(self.dim, np.float32)
        zero = nx.pinned_array(self.dim, np.float32)
        with zero.write() as z:
            z[:] = 0.0
        self.stream.upload(zero, to=self.weights).wait().free()

    def apply(self, step: int, grad: NDArray[np.float32]) -> None:
        buf = self.grad_host
        assert buf is not None
        with buf.write() as g:
            g[:] = grad
        up = self.stream.upload(buf, to=self.grad_dev)
        self.grad_host = None
        self.stream.launch(sgd_update, 2, 64, self.weights, self.grad_dev, self.schedule(step))
        self.grad_host = up.wait()

    def snapshot_norm(self, down: nx.Transfer[Host]) -> float:
        buf = down.wait()
        norm = float(np.linalg.norm(buf.read()))
        self.snapshot = buf
        self.history.append(norm)
        return norm

    def current(self) -> NDArray[np.float32]:
        snap = self.snapshot
        assert snap is not None
        snap = self.stream.download(self.weights, into=snap).wait()
        values: NDArray[np.float32] = snap.read().copy()
        self.snapshot = snap
        return values


def main() -> None:
    dim, steps = 256, 24
    rng = np.random.default_rng(3)
    target = rng.standard_normal(dim).astype(np.float32)
    schedule = functools.partial(step_decay, base=0.5, drop=0.5, every=8)
    st = TrainState(dim, schedule)
    w_ref = np.zeros(dim, dtype=np.float32)
    for step in range(steps):
        w_now = st.current()
        grad = (w_now - target).astype(np.float32)
        st.apply(step, grad)
        w_ref -= np.float32(schedule(step)) * (w_ref - target)
        if step % 4 == 3:
            snap = st.snapshot
            assert snap is not None
            st.snapshot = None
            down = st.stream.download(st.weights, into=snap)
            st.snapshot_norm(down)
    final = st.current()
    assert np.allclose(final, w_ref, atol=1e-4), "trainer diverged from reference"
    st.stream.close()
    print(f"lr_schedule_trainer: {len(st.history)} snapshots, last norm {st.history[-1]:.4f}")


if __name__ == "__main__":
    main()
