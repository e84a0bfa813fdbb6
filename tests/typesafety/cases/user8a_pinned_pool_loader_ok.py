# RUN: ok
"""A batch loader built on nx.PinnedPool: staging buffers are taken from the pool, filled,
uploaded, and recycled with their upload so they are reused only once it has landed."""
from __future__ import annotations

from typing import Any, Iterable

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def add_bias(src: Any, dst: Any, bias: float) -> None:
    i = cuda.grid(1)
    if i < src.size:
        dst[i] = src[i] + bias


class BatchLoader:
    def __init__(self, batch: int, depth: int = 2) -> None:
        self.batch = batch
        self.stream = nx.stream()
        self.pool: nx.PinnedPool[np.float32] = nx.PinnedPool(depth, batch, np.float32)
        self.outputs: nx.PinnedPool[np.float32] = nx.PinnedPool(1, batch, np.float32)
        self.d_in: Dev = nx.device_array(batch, np.float32)
        self.d_out: Dev = nx.device_array(batch, np.float32)
        self.loaded = 0

    def load(self, rows: NDArray[np.float32]) -> None:
        buf = self.pool.take()
        with buf.write() as a:
            a[:] = rows
        self.pool.recycle(self.stream.upload(buf, to=self.d_in))
        self.stream.launch(add_bias, 1, self.batch, self.d_in, self.d_out, 0.25)
        self.loaded += 1

    def latest(self) -> float:
        out = self.outputs.take()
        out = self.stream.download(self.d_out, into=out).wait()
        value = float(out.read().mean())
        self.outputs.give(out)
        return value

    def close(self) -> None:
        self.pool.drain()
        self.stream.close()


def batches(n: int, batch: int) -> Iterable[NDArray[np.float32]]:
    for k in range(n):
        yield np.full(batch, float(k), dtype=np.float32)


def main() -> None:
    loader = BatchLoader(32)
    means: list[float] = []
    for rows in batches(5, 32):
        loader.load(rows)
        means.append(loader.latest())
    loader.close()
    assert means == [k + 0.25 for k in range(5)], means
    print("pinned pool loader: loaded", loader.loaded, "means", means)


if __name__ == "__main__":
    main()
