# RUN: ok
# A generator that completes transfers as it is consumed (only partly consumed here),
# and an async helper awaited on fresh transfers; the caller completes the rest itself.
from __future__ import annotations

import asyncio
from collections.abc import Generator

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8


def landed(ts: list[nx.Transfer[Host]]) -> Generator[Host, None, None]:
    for t in ts:
        yield t.wait()


async def finish(t: nx.Transfer[Host]) -> Host:
    return await t


async def amain() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    ts = [s.upload(nx.pinned_array(N, np.float32), to=dev) for _ in range(3)]
    it = landed(ts)
    first = next(it)
    it.close()
    rest = [t.wait() for t in ts[1:]]
    pending = s.upload(first, to=dev)
    coro = finish(pending)
    first = await coro
    t2 = s.upload(rest[0], to=dev)
    rest[0] = await finish(t2)
    print(first.size, len(rest))
    s.close()


if __name__ == "__main__":
    asyncio.run(amain())
