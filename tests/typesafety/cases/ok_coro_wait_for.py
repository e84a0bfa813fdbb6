# RUN: ok
# A staged upload wrapped in asyncio.wait_for / shield / a TaskGroup; the caller
# rebinds host from each await result and only then reads it. Correct.
from __future__ import annotations

import asyncio

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 32


async def stage(s: nx.Stream[nx.Lent], host: Host, dev: Dev) -> Host:
    up = s.upload(host, to=dev)
    await asyncio.sleep(0)
    return await up


async def stage_pair(s: nx.Stream[nx.Lent], host: Host, dev: Dev) -> tuple[Host, float]:
    back = await stage(s, host, dev)
    return back, float(back.read().sum())


async def main() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    host = nx.pinned_copy(np.ones(N, np.float32))
    host = await asyncio.wait_for(stage(s, host, dev), timeout=5.0)
    print(host.read()[0])
    host = await asyncio.shield(stage(s, host, dev))
    host, total = await stage_pair(s, host, dev)
    assert total == N
    async with asyncio.TaskGroup() as tg:
        task = tg.create_task(stage(s, host, dev))
    host = task.result()
    with host.write() as a:
        a[:] = 2.0
    pending = asyncio.ensure_future(stage(s, host, dev))
    host = await pending
    print(host.read()[0])
    host.free()
    dev.free()
    s.close()


asyncio.run(main())
