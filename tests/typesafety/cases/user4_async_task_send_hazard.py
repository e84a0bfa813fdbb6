# asyncio tasks that take buffers over: send() is a coroutine whose buffer parameter
# is consumed (it uploads it and awaits the copy); the caller wraps each call in a
# task and uses what the task returns once it is awaited. The bug: a checksum of a is
# taken after its task was created, while the task owns a.
# RUN: raises UseAfterTransferError
from __future__ import annotations

import asyncio

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N = 8


async def send(buf: nx.Consumed[Host], s: nx.Stream[nx.Lent], dev: nx.DeviceArray[nx.Owned, np.float32]) -> Host:
    return await s.upload(buf, to=dev)


async def main() -> None:
    s1, s2 = nx.stream(), nx.stream()
    d1, d2 = nx.device_array(N, np.float32), nx.device_array(N, np.float32)
    a = nx.pinned_copy(np.full(N, 1.0, np.float32))
    b = nx.pinned_copy(np.full(N, 2.0, np.float32))
    ta = asyncio.create_task(send(a, s1, d1))
    tb = asyncio.create_task(send(b, s2, d2))
    await asyncio.sleep(0)  # let the tasks start their uploads
    checksum = float(a.read().sum())  # E: use-after-transfer "a"
    a, b = await ta, await tb
    print("checksum", checksum)
    assert float(a.read()[0] + b.read()[0]) == 3.0
    print("both sent")
    s1.close()
    s2.close()


asyncio.run(main())
