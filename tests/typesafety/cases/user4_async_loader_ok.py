# An asyncio data loader: each batch is uploaded and awaited (the await completes the
# transfer without blocking the event loop), so several loaders share one loop.
# RUN: ok
from __future__ import annotations

import asyncio

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N = 16


async def load(s: nx.Stream[nx.Lent], name: str, batches: int) -> float:
    dev = nx.device_array(N, np.float32)
    host = nx.pinned_array(N, np.float32)
    checksum = 0.0
    for b in range(batches):
        with host.write() as a:
            a[:] = float(b)
        up = s.upload(host, to=dev)
        host = await up
        checksum += float(host.read()[0])
    back = nx.pinned_array(N, np.float32)
    back = await s.download(dev, into=back)
    print(name, "last batch on device:", back.read()[0])
    dev.free()
    return checksum


async def main() -> None:
    streams = [nx.stream(), nx.stream()]
    sums = await asyncio.gather(load(streams[0], "a", 3), load(streams[1], "b", 4))
    assert list(sums) == [3.0, 6.0], sums
    for s in streams:
        s.close()


asyncio.run(main())
