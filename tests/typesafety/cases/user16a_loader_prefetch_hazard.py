# RUN: raises UseAfterTransferError via-call
# Planted bug: reads the buffer the newest upload still owns
"""A prefetching batch loader for a training loop.

The loader keeps `depth` (pinned, device) slot pairs. While the training step works on
batch i, the uploads of the next batches are already queued on the loader's stream.
The consumer hands each slot back with `release()`, which refills it at once.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def normalize(x: Any, mean: float, inv_std: float) -> None:
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        x[i] = (x[i] - mean) * inv_std


class Prefetcher:
    """Stages batches of `dataset` into device memory ahead of the consumer."""

    def __init__(self, dataset: NDArray[np.float32], batch: int, depth: int = 2) -> None:
        self.dataset = dataset
        self.batch = batch
        self.stream = nx.stream()
        self.free: deque[tuple[Host, Dev]] = deque(
            (nx.pinned_array(batch, np.float32), nx.device_array(batch, np.float32))
            for _ in range(depth)
        )
        self.inflight: deque[tuple[int, nx.Transfer[Host], Dev]] = deque()
        self.count = dataset.size // batch
        self.next_index = 0
        self.last_index = -1
        self.last_staged: Host | None = None
        self.staged_sums: dict[int, float] = {}

    def _stage(self) -> None:
        if self.next_index >= self.count or not self.free:
            return
        host, dev = self.free.popleft()
        i = self.next_index
        self.next_index += 1
        piece = self.dataset[i * self.batch : (i + 1) * self.batch]
        with host.write() as a:
            a[:] = piece
        self.staged_sums[i] = float(piece.sum(dtype=np.float64))
        self.last_index = i
        self.last_staged = host
        self.inflight.append((i, self.stream.upload(host, to=dev), dev))

    def start(self) -> None:
        while self.free and self.next_index < self.count:
            self._stage()

    def next_batch(self) -> tuple[int, Host, Dev] | None:
        if not self.inflight:
            return None
        i, up, dev = self.inflight.popleft()
        host = up.wait()
        return i, host, dev

    def release(self, host: Host, dev: Dev) -> None:
        self.free.append((host, dev))
        self._stage()

    def report(self) -> str:
        assert self.last_staged is not None
        preview = self.last_staged.read()[:4]
        return f"staged up to batch {self.last_index}: {preview.tolist()}"

    def close(self) -> None:
        self.stream.close()


def train(loader: Prefetcher, mean: float, inv_std: float) -> list[float]:
    losses: list[float] = []
    loader.start()
    blocks, threads = 4, 64
    while (item := loader.next_batch()) is not None:
        i, host, dev = item
        assert float(host.read().sum(dtype=np.float64)) == loader.staged_sums[i]
        s = loader.stream
        s.launch(normalize, blocks, threads, dev, mean, inv_std)
        host = s.download(dev, into=host).wait()
        losses.append(float(np.square(host.read()).mean(dtype=np.float64)))
        loader.release(host, dev)
        if i % 2 == 0:
            print(loader.report())  # E: use-after-transfer
    return losses


def main() -> None:
    batch, batches = 512, 5
    rng = np.random.default_rng(3)
    data = rng.normal(2.0, 0.5, batch * batches).astype(np.float32)
    loader = Prefetcher(data, batch, depth=2)
    losses = train(loader, 2.0, 2.0)
    loader.close()
    expected = [
        float(np.square((data[k * batch : (k + 1) * batch] - np.float32(2.0)) * np.float32(2.0)).mean(dtype=np.float64))
        for k in range(batches)
    ]
    assert len(losses) == batches
    assert np.allclose(losses, expected, rtol=1e-5), (losses, expected)
    print("loader_prefetch: ok", [round(x, 3) for x in losses])


if __name__ == "__main__":
    main()
