# RUN: ok
# Async batch refresh of a list of pinned buffers: one coroutine takes every element
# back in place; another batch runs as one task per element and the caller takes each
# element back from its task by index. Nothing is read before it is back. Correct.
from __future__ import annotations

import asyncio

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8
K = 3


async def stage(s: nx.Stream[nx.Lent], host: Host, dev: Dev) -> Host:
    return await s.upload(host, to=dev)


async def refresh_all(s: nx.Stream[nx.Lent], hosts: list[Host], devs: list[Dev]) -> None:
    for i in range(len(hosts)):
        hosts[i] = await s.upload(hosts[i], to=devs[i])


async def main() -> None:
    s = nx.stream()
    devs = [nx.device_array(N, np.float32) for _ in range(K)]
    hosts = [nx.pinned_copy(np.full(N, i, np.float32)) for i in range(K)]
    await refresh_all(s, hosts, devs)
    print(hosts[0].read()[0])
    for i in range(K):
        hosts[i] = await stage(s, hosts[i], devs[i])
    print(hosts[1].read()[0])
    tasks = [asyncio.create_task(stage(s, hosts[i], devs[i])) for i in range(K)]
    for i, t in enumerate(tasks):
        hosts[i] = await t
    print(hosts[2].read()[0])
    hosts = list(await asyncio.gather(*(stage(s, h, d) for h, d in zip(hosts, devs))))
    for h in hosts:
        h.free()
    for d in devs:
        d.free()
    s.close()


asyncio.run(main())
