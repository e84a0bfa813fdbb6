# A training-loop data loader: a class owning one pinned staging buffer and two device
# batches; iterating it uploads batch k+1 (prefetch) while the caller trains on batch k.
# Bug: the first value of the staging buffer is logged right after the next batch was
# prefetched: _prefetch() has moved self.host into an upload that is still running.
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def sgd_step(w: Any, grad: Any, lr: float) -> None:
    i = cuda.grid(1)
    if i < w.size:
        w[i] -= lr * grad[i]


class Loader:
    """Yields device batches of ``batch`` rows; the next one uploads meanwhile."""

    def __init__(self, data: NDArray[np.float32], batch: int) -> None:
        self.data = data
        self.batch = batch
        self.s = nx.stream()
        self.host = nx.pinned_array(batch, np.float32)
        self.devs: list[Dev] = [nx.device_array(batch, np.float32) for _ in range(2)]
        self.pending: nx.Transfer[Host] | None = None
        self.first_values: list[float] = []

    def __len__(self) -> int:
        return len(self.data) // self.batch

    def _prefetch(self, k: int) -> None:
        lo = k * self.batch
        with self.host.write() as a:
            a[:] = self.data[lo : lo + self.batch]
        self.pending = self.s.upload(self.host, to=self.devs[k % 2])

    def _first(self) -> float:
        return float(self.host.read()[0])

    def __iter__(self) -> Iterator[Dev]:
        if len(self) == 0:
            return
        self._prefetch(0)
        for k in range(len(self)):
            assert self.pending is not None
            self.host = self.pending.wait()
            self.pending = None
            if k + 1 < len(self):
                self._prefetch(k + 1)
            self.first_values.append(self._first())  # E: use-after-transfer "host" "_first()"
            yield self.devs[k % 2]

    def close(self) -> None:
        if self.pending is not None:
            self.host = self.pending.wait()
            self.pending = None
        self.s.close()


def train(epochs: int = 2, n: int = 32, batches: int = 3) -> float:
    data = np.ones(n * batches, dtype=np.float32)
    loader = Loader(data, n)
    weights = nx.device_array(n, np.float32)
    zeros = nx.pinned_copy(np.zeros(n, dtype=np.float32))
    zeros = loader.s.upload(zeros, to=weights).wait()
    for _ in range(epochs):
        for batch in loader:
            loader.s.launch(sgd_step, 1, n, weights, batch, 0.5)
    out = loader.s.download(weights, into=zeros).wait()
    loader.close()
    result = float(out.read().sum())
    assert result == -0.5 * epochs * batches * n, result
    assert loader.first_values == [1.0] * (epochs * batches)
    return result


train()
