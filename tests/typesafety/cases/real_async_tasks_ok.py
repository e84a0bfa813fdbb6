# asyncio tasks, one per slot: each task awaits its own upload (which gives the buffer
# back) and then its download, and reads only what came back. Correct.
# RUN: ok
from __future__ import annotations

import asyncio

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


async def round_trip(s: nx.Stream[nx.Owned], host: Host, dev: Dev, value: float) -> float:
    with host.write() as a:
        a[:] = value
    host = await s.upload(host, to=dev)
    out = nx.pinned_array(host.shape, np.float32)
    down = s.download(dev, into=out)
    await asyncio.sleep(0)  # let the other tasks enqueue their copies
    out = await down
    return float(out.read().sum()) + float(host.read()[0])


async def main() -> list[float]:
    streams = [nx.stream() for _ in range(3)]
    tasks = [
        asyncio.create_task(
            round_trip(s, nx.pinned_array(16, np.float32), nx.device_array(16, np.float32), i)
        )
        for i, s in enumerate(streams)
    ]
    results = list(await asyncio.gather(*tasks))
    for s in streams:
        s.close()
    return results


asyncio.run(main())
