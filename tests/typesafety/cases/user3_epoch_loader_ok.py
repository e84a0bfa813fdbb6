# A training data loader: each epoch shuffles the batch order, fills a pinned batch
# XFAIL: false positive: the inner `for step in range(len(order))` is taken to possibly run zero times and the swap `front, back = back, front` after the prefetch upload to possibly end the loop, so the correct epoch loop gets use-after-transfer at lines 53/54, unfinished-transfer at 54 and 60, transfer-completed-twice at 56
# buffer, uploads it and runs the step kernel while the next batch is filled and
# prefetched into the other buffer (two pinned buffers, one stream).
# (Simulator: ok. No RUN header while the case is a strict xfail: the agreement test
# would pass and break the strict xfail. Restore `# RUN: ok` with the fix.)
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def train_step(batch: Any, weights: Any) -> None:
    for i in range(cuda.grid(1), batch.size, cuda.gridsize(1)):
        weights[i] += 0.01 * batch[i]


class Loader:
    def __init__(self, data: NDArray[np.float32], batch: int, seed: int) -> None:
        self.data = data
        self.batch = batch
        self.rng = np.random.default_rng(seed)

    def order(self) -> NDArray[np.int64]:
        return self.rng.permutation(self.data.shape[0] // self.batch)

    def fill(self, buf: Host, index: int) -> None:
        with buf.write() as a:
            a[:] = self.data[index * self.batch : (index + 1) * self.batch]


def train(epochs: int = 2, batches: int = 4, batch: int = 32) -> float:
    data = np.arange(batches * batch, dtype=np.float32)
    loader = Loader(data, batch, seed=0)
    s = nx.stream()
    weights = nx.device_array(batch, np.float32)
    s.upload_staged(np.zeros(batch, np.float32), to=weights)
    dev_batch = nx.device_array(batch, np.float32)
    front = nx.pinned_array(batch, np.float32)
    back = nx.pinned_array(batch, np.float32)

    for epoch in range(epochs):
        order = loader.order()
        loader.fill(front, int(order[0]))
        pending = s.upload(front, to=dev_batch)
        for step in range(len(order)):
            front = pending.wait()  # the batch is on the device: its buffer is free
            s.launch(train_step, 1, 32, dev_batch, weights)
            if step + 1 < len(order):
                loader.fill(back, int(order[step + 1]))  # overlaps the kernel
                pending = s.upload(back, to=dev_batch)  # stream order: after the kernel
                front, back = back, front
        print(f"epoch {epoch}: {len(order)} batches")

    out = nx.pinned_array(batch, np.float32)
    out = s.download(weights, into=out).wait()
    s.close()
    result = float(out.read().sum())
    expected = 0.01 * epochs * float(data.sum())
    assert abs(result - expected) < 1e-2 * expected, (result, expected)
    return result


if __name__ == "__main__":
    print(train())
