# Async replication: the same weights go to two device replicas, each by its own task on
# its own stream; the tasks own their staging buffers (passed as Consumed arguments) and
# give them back as results. BUG: one pinned copy is handed to both tasks ("they only
# read it"), but the first task's upload owns it while the second one starts.
# RUN: raises UseAfterTransferError via-call
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
    h = nx.pinned_copy(weights)
    back = await asyncio.gather(replicate(h, d1), replicate(h, d2))  # E: use-after-transfer "h"
    for buf in back:
        buf.free()
    return list(await asyncio.gather(verify(d1), verify(d2)))


def main() -> None:
    sums = asyncio.run(run(np.full(N, 2.0, dtype=np.float32)))
    assert sums == [16.0, 16.0], sums


main()
