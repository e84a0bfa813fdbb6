# Async replication: the same weights go to two device replicas, each by its own task on
# its own stream; the tasks own their staging buffers (passed as Consumed arguments) and
# give them back as results. Correct: each task gets its own pinned copy.
# RUN: ok
from __future__ import annotations

import asyncio

import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8


async def replicate(buf: nx.Consumed[Host], dev: Dev) -> Host:
    s = nx.stream()
    buf = await s.upload(buf, to=dev)
    s.close()
    return buf


async def verify(dev: Dev) -> float:
    s = nx.stream()
    out = await s.download(dev, into=nx.pinned_array(N, np.float32))
    s.close()
    return float(out.read().sum())


async def run(weights: NDArray[np.float32]) -> list[float]:
    d1, d2 = nx.device_array(N, np.float32), nx.device_array(N, np.float32)
    h1, h2 = nx.pinned_copy(weights), nx.pinned_copy(weights)
    back = await asyncio.gather(replicate(h1, d1), replicate(h2, d2))
    for buf in back:
        buf.free()
    return list(await asyncio.gather(verify(d1), verify(d2)))


def main() -> None:
    sums = asyncio.run(run(np.full(N, 2.0, dtype=np.float32)))
    assert sums == [16.0, 16.0], sums


main()
