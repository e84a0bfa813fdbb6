# RUN: ok
"""Training-style data loader: the next batch is uploaded while the current one trains."""
from __future__ import annotations

from typing import Any, Iterator

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def sgd_step(x: Any, w: Any, lr: float) -> None:
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        w[i] -= lr * x[i]


class PrefetchLoader:
    """Two host slots; one is in flight while the caller works on the other."""

    def __init__(self, dataset: NDArray[np.float32], stream: nx.Stream[nx.Lent]) -> None:
        self.dataset = dataset
        self.stream = stream
        self.batch = dataset.shape[1]
        self.spare: list[Host] = [nx.pinned_array(self.batch, np.float32) for _ in range(2)]
        self.devs: list[Dev] = [nx.device_array(self.batch, np.float32) for _ in range(2)]
        self.pending: nx.Transfer[Host] | None = None
        self.cursor = 0

    def _prefetch(self, slot: int) -> None:
        if self.cursor >= self.dataset.shape[0]:
            return
        host = self.spare.pop()
        with host.write() as a:
            a[:] = self.dataset[self.cursor]
        self.cursor += 1
        self.pending = self.stream.upload(host, to=self.devs[slot])

    def reset(self) -> None:
        """Start a new epoch; an in-flight prefetch from the old one is taken back."""
        if self.pending is not None:
            self.spare.append(self.pending.wait())
        self.pending = None
        self.cursor = 0

    def batches(self, limit: int) -> Iterator[Dev]:
        slot = 0
        self._prefetch(slot)
        while self.pending is not None and limit > 0:
            limit -= 1
            host = self.pending.wait()
            self.pending = None
            self.spare.append(host)
            current = self.devs[slot]
            slot ^= 1
            self._prefetch(slot)
            yield current


def main() -> None:
    rng = np.random.default_rng(0)
    data = rng.random((5, 128), dtype=np.float32)
    s = nx.stream()
    weights = nx.device_array(128, np.float32)
    s.upload_staged(np.ones(128, np.float32), to=weights).wait()
    loader = PrefetchLoader(data, s)
    steps = 0
    for epoch, limit in enumerate((3, 5)):
        loader.reset()
        for dev_batch in loader.batches(limit):
            s.launch(sgd_step, 2, 64, dev_batch, weights, 0.1)
            steps += 1
    loader.reset()
    out = nx.pinned_array(128, np.float32)
    out = s.download(weights, into=out).wait()
    assert np.allclose(out.read(), 1.0 - 0.1 * (data[:3].sum(axis=0) + data.sum(axis=0)), atol=1e-5)
    s.close()
    print(f"trained {steps} steps")


if __name__ == "__main__":
    main()
