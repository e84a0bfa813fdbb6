# RUN: raises UseAfterTransferError
# Planted bug: buf moved into the upload, which was recycled into the pool: reading it for the checksum is a use after transfer
"""Gradient accumulation over micro-batches collated into an event-gated pinned pool.

``collate`` packs a micro-batch's samples into a pool buffer, uploads it and recycles
the upload into the pool, so the buffer is reused only once its copy has read it. The
``GradAccumulator`` (a context manager that drains the pool and closes its stream on
exit) adds each micro-batch into a device gradient and applies it every ``accum``
micro-batches.
"""

from __future__ import annotations

from types import TracebackType
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def accumulate(grad: Any, x: Any, scale: float) -> None:
    for i in range(cuda.grid(1), grad.size, cuda.gridsize(1)):
        grad[i] += scale * x[i]


@cuda.jit
def zero(a: Any) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = 0.0


def collate(samples: list[NDArray[np.float32]], pool: nx.PinnedPool[np.float32], s: nx.Stream[nx.Lent], dev: Dev) -> float:
    """Pack ``samples`` into a pool buffer and start its upload into ``dev``; returns
    the micro-batch's checksum, for the training log."""
    buf = pool.take()  # never a buffer an earlier upload still reads
    with buf.write() as a:
        a[:] = np.concatenate(samples)
    pool.recycle(s.upload(buf, to=dev))
    return float(buf.read().sum(dtype=np.float64))  # E: use-after-transfer


class GradAccumulator:
    def __init__(self, n: int, accum: int, buffers: int = 2) -> None:
        self.n, self.accum = n, accum
        self.s = nx.stream()
        self.pool: nx.PinnedPool[np.float32] = nx.PinnedPool(buffers, n, np.float32)
        self.batch_dev = nx.device_array(n, np.float32)
        self.grad_dev = nx.device_array(n, np.float32)
        self.grad_host = nx.pinned_array(n, np.float32)
        self.count = 0
        self.checksums: list[float] = []
        self.applied: list[NDArray[np.float32]] = []
        self.s.launch(zero, 1, 64, self.grad_dev)

    def __enter__(self) -> GradAccumulator:
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None) -> None:
        self.pool.drain()
        self.grad_host.free()
        self.s.close()

    def micro_step(self, samples: list[NDArray[np.float32]]) -> None:
        self.checksums.append(collate(samples, self.pool, self.s, self.batch_dev))
        self.s.launch(accumulate, 1, 64, self.grad_dev, self.batch_dev, 1.0 / self.accum)
        self.count += 1
        if self.count % self.accum == 0:
            self._apply()

    def _apply(self) -> None:
        self.grad_host = self.s.download(self.grad_dev, into=self.grad_host).wait()
        self.applied.append(self.grad_host.read().copy())
        self.s.launch(zero, 1, 64, self.grad_dev)


def main(per_sample: int = 16, samples: int = 4, steps: int = 9, accum: int = 3) -> None:
    rng = np.random.default_rng(29)
    micro = [[rng.integers(-5, 5, per_sample).astype(np.float32) for _ in range(samples)] for _ in range(steps)]
    n = per_sample * samples
    with GradAccumulator(n, accum) as acc:
        for batch in micro:
            acc.micro_step(batch)
    assert acc.checksums == [float(np.concatenate(b).sum(dtype=np.float64)) for b in micro]
    assert len(acc.applied) == steps // accum
    for k, got in enumerate(acc.applied):
        want = np.zeros(n, np.float32)
        for b in micro[k * accum : (k + 1) * accum]:
            want += np.float32(1.0 / accum) * np.concatenate(b)
        assert np.allclose(got, want, atol=1e-5), k
    print(f"grad_accum_pool: {steps} micro-batches, {len(acc.applied)} updates")


if __name__ == "__main__":
    main()
