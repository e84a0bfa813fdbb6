# Runtime: warns ResourceWarning anywhere
# XFAIL: miss (line 57): appending to a deque(maxlen=depth) of pending uploads evicts the oldest unwaited; eviction by a bounded deque is not modelled
# Planted bug: push() no longer retires the oldest upload before appending, so the bounded deque silently evicts a pending transfer.
"""Gradient accumulation with a bounded prefetch window of minibatch uploads.

Each minibatch of per-example gradients is staged into fresh pinned memory and uploaded
into one of a ring of device slots; a kernel adds it into the device accumulator right
away (stream order). The staging uploads are retired through a ``deque(maxlen=depth)``
window: the oldest is completed before a new one is admitted.
"""

from __future__ import annotations

import itertools
from collections import deque
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def add_into(acc: Any, g: Any, scale: float) -> None:
    for i in range(cuda.grid(1), acc.size, cuda.gridsize(1)):
        acc[i] += scale * g[i]


class AccumLoader:
    def __init__(self, dim: int, depth: int, micro_batches: int) -> None:
        self.dim = dim
        self.scale = 1.0 / micro_batches
        self.stream = nx.stream()
        self.slots: list[Dev] = [nx.device_array(dim, np.float32) for _ in range(depth)]
        self.ring = itertools.cycle(range(depth))
        self.acc: Dev = nx.device_array(dim, np.float32)
        self.inflight: deque[nx.Transfer[Host]] = deque(maxlen=depth)
        self.retired = 0
        self.reset()

    def reset(self) -> None:
        self.stream.upload(nx.pinned_copy(np.zeros(self.dim, np.float32)), to=self.acc).wait().free()

    def _retire_one(self) -> None:
        self.inflight.popleft().wait().free()
        self.retired += 1

    def push(self, grad: NDArray[np.float32]) -> None:
        slot = self.slots[next(self.ring)]
        up = self.stream.upload(nx.pinned_copy(grad), to=slot)
        self.stream.launch(add_into, 2, 64, self.acc, slot, self.scale)
        self.inflight.append(up)  # E: unfinished-transfer

    def step(self) -> NDArray[np.float32]:
        while self.inflight:
            self._retire_one()
        out = self.stream.download(self.acc, into=nx.pinned_array(self.dim, np.float32)).wait()
        mean: NDArray[np.float32] = out.read().copy()
        out.free()
        self.reset()
        return mean

    def close(self) -> None:
        while self.inflight:
            self._retire_one()
        self.stream.close()


def main() -> None:
    dim, micro, steps = 512, 6, 3
    rng = np.random.default_rng(9)
    loader = AccumLoader(dim, depth=2, micro_batches=micro)
    for step in range(steps):
        grads = [rng.standard_normal(dim).astype(np.float32) for _ in range(micro)]
        for g in grads:
            loader.push(g)
        mean = loader.step()
        assert np.allclose(mean, np.mean(grads, axis=0), atol=1e-5), f"step {step}: bad mean"
    loader.close()
    print(f"grad_accum_loader: {steps} steps, {loader.retired} staging uploads retired")


if __name__ == "__main__":
    main()
