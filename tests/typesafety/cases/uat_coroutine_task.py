# A coroutine run as a task, or gathered, owns the arguments its body moves from the
# call that makes the coroutine: a use of them afterwards races the task (it may have
# started at any await), whether or not the task has run yet.
from __future__ import annotations

import asyncio

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


async def stage(s: nx.Stream[nx.Lent], host: Host, dev: Dev) -> Host:
    return await s.upload(host, to=dev)


class Loader:
    def __init__(self, s: nx.Stream[nx.Lent], dev: Dev) -> None:
        self.s = s
        self.dev = dev

    async def push(self, host: Host) -> None:
        up = self.s.upload(host, to=self.dev)
        await asyncio.sleep(0)
        up.wait().free()


async def as_task(s: nx.Stream[nx.Lent], host: Host, dev: Dev) -> Host:
    task = asyncio.create_task(stage(s, host, dev))
    await asyncio.sleep(0)
    host.read()  # E: use-after-transfer
    return await task


async def gathered(s: nx.Stream[nx.Lent], a: Host, b: Host, da: Dev, db: Dev) -> None:
    got = await asyncio.gather(stage(s, a, da), stage(s, b, db))
    print(a.shape)  # metadata stays readable
    a.read()  # E: use-after-transfer
    for h in got:
        h.free()


async def kept(s: nx.Stream[nx.Lent], host: Host, dev: Dev) -> None:
    pending = stage(s, host, dev)  # the coroutine holds host from here on
    with host.write() as w:  # E: use-after-transfer
        w[:] = 1.0
    (await pending).free()


async def method_task(loader: Loader, host: Host) -> None:
    job = asyncio.create_task(loader.push(host))
    host.read()  # E: use-after-transfer
    await job
