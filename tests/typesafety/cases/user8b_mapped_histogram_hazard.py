# RUN: raises UseAfterTransferError
# Planted bug: the halving pass is launched on mapping.device after mapping.wait() has ended the mapping.
"""Histogram into mapped (zero-copy) host memory, with a racy progress peek."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

BINS = 8
DevF = nx.DeviceArray[nx.Owned, np.float32]


@nx.kernel(reads=["values"], writes=["hist"])
@cuda.jit
def histogram(values: Any, hist: Any) -> None:
    for i in range(cuda.grid(1), values.size, cuda.gridsize(1)):
        b = int(values[i] * 8.0)
        if b >= 8:
            b = 7
        cuda.atomic.add(hist, b, 1)


@nx.kernel(writes=["hist"])
@cuda.jit
def halve(hist: Any) -> None:
    for i in range(cuda.grid(1), hist.size, cuda.gridsize(1)):
        hist[i] = hist[i] // 2


def launch_all(s: nx.Stream[nx.Lent], batches: list[DevF],
               mapping: nx.Mapping[np.int32]) -> None:
    for dev in batches:
        histogram[1, 64, s](dev, mapping.device)


def build(data: NDArray[np.float32], batch: int) -> NDArray[np.int32]:
    s = nx.stream()
    hist = nx.mapped_array(BINS, np.int32)
    with hist.write() as v:
        v[:] = 0
    batches: list[DevF] = []
    for start in range(0, data.size, batch):
        dev = nx.device_array(batch, np.float32)
        s.upload(nx.pinned_copy(data[start : start + batch]), to=dev).wait()
        batches.append(dev)
    mapping = s.map(hist)
    with s.lend() as ls:
        launch_all(ls, batches, mapping)
    progress = int(mapping.racy_peek().sum())  # racy by design: a progress figure only
    hist = mapping.wait()
    halve[1, 64, s](mapping.device)  # E: use-after-transfer
    result: NDArray[np.int32] = hist.read().copy()
    assert progress >= 0
    for dev in batches:
        dev.free()
    s.close()
    return result


def main(n: int = 512, batch: int = 128) -> NDArray[np.int32]:
    data = np.random.default_rng(5).random(n, dtype=np.float32)
    result = build(data, batch)
    expected = np.bincount(np.minimum((data * 8).astype(np.int64), 7), minlength=BINS) // 2
    assert np.array_equal(result, expected), (result, expected)
    return result


if __name__ == "__main__":
    main()
