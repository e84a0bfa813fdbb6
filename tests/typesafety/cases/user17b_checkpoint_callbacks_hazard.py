# RUN: raises BorrowError via-call
# XFAIL: miss (line 75): reads a lent checkpoint view stored in self.views after its lend block ended
# Planted bug: reads a lent checkpoint view stored in self.views after its lend block ended
"""Periodic checkpoints handed to callbacks as lent views, then restore of the best one.

The trainer keeps a pinned host mirror of the weights. Every ``every`` steps it
downloads the weights into the mirror and lends the mirror to each registered callback
(a norm logger, a snapshot keeper) for the duration of the call. At the end the
checkpoint with the smallest weight norm is written back into the mirror and uploaded.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
View = nx.PinnedArray[nx.Lent, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
Callback = Callable[[int, View], None]


@cuda.jit
def sgd_step(w: Any, g: Any, lr: float) -> None:
    for i in range(cuda.grid(1), w.size, cuda.gridsize(1)):
        w[i] -= lr * g[i]


@dataclass
class ModelState:
    dev: Dev
    mirror: Host
    grad_host: Host
    grad_dev: Dev
    step: int = 0
    callbacks: list[Callback] = field(default_factory=list)

    def train_step(self, s: nx.Stream[nx.Lent], grad: NDArray[np.float32], lr: float) -> None:
        with self.grad_host.write() as a:
            a[:] = grad
        up = s.upload(self.grad_host, to=self.grad_dev)
        s.launch(sgd_step, 1, 64, self.dev, self.grad_dev, lr)
        self.grad_host = up.wait()
        self.step += 1

    def checkpoint(self, s: nx.Stream[nx.Lent]) -> None:
        self.mirror = s.download(self.dev, into=self.mirror).wait()
        with self.mirror.lend() as view:
            for cb in self.callbacks:
                cb(self.step, view)

    def restore(self, s: nx.Stream[nx.Lent], weights: NDArray[np.float32]) -> None:
        with self.mirror.write() as a:
            a[:] = weights
        self.mirror = s.upload(self.mirror, to=self.dev).wait()


class NormLogger:
    def __init__(self) -> None:
        self.norms: dict[int, float] = {}
        self.views: dict[int, View] = {}

    def __call__(self, step: int, view: View) -> None:
        self.views[step] = view  # norms are computed once, when best_step() asks

    def best_step(self) -> int:
        for step, view in self.views.items():
            self.norms[step] = float(np.linalg.norm(view.read().astype(np.float64)))  # E: lend-escape
        return min(self.norms, key=lambda k: self.norms[k])


class SnapshotKeeper:
    def __init__(self) -> None:
        self.snapshots: dict[int, NDArray[np.float32]] = {}

    def __call__(self, step: int, view: View) -> None:
        self.snapshots[step] = view.read().copy()


def main(n: int = 64, steps: int = 12, every: int = 3) -> None:
    rng = np.random.default_rng(8)
    w0 = rng.normal(size=n).astype(np.float32)
    grads = [rng.normal(size=n).astype(np.float32) for _ in range(steps)]
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    mirror = s.upload(nx.pinned_copy(w0), to=dev).wait()
    state = ModelState(dev, mirror, nx.pinned_array(n, np.float32), nx.device_array(n, np.float32))
    logger, keeper = NormLogger(), SnapshotKeeper()
    state.callbacks += [logger, keeper]

    for k in range(steps):
        state.train_step(s, grads[k], 0.05)
        if state.step % every == 0:
            state.checkpoint(s)
    best = logger.best_step()
    state.restore(s, keeper.snapshots[best])
    final = s.download(state.dev, into=nx.pinned_array(n, np.float32)).wait()
    s.close()

    w = w0.copy()
    want: dict[int, NDArray[np.float32]] = {}
    for k in range(steps):
        w -= np.float32(0.05) * grads[k]
        if (k + 1) % every == 0:
            want[k + 1] = w.copy()
    assert sorted(keeper.snapshots) == sorted(want)
    for step, snap in want.items():
        assert np.allclose(keeper.snapshots[step], snap, atol=1e-6), step
    assert np.array_equal(final.read(), keeper.snapshots[best])
    print(f"checkpoint_callbacks: {len(want)} checkpoints, restored step {best}")


if __name__ == "__main__":
    main()
