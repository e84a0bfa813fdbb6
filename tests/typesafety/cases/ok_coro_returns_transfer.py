# RUN: ok
# A coroutine that starts the upload after a throttle and hands the transfer back:
# the caller completes it. Correct: host is only touched after host = t.wait().
from __future__ import annotations

import asyncio

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 16


async def begin_upload(s: nx.Stream[nx.Lent], host: Host, dev: Dev) -> nx.Transfer[Host]:
    await asyncio.sleep(0)  # let other producers run first
    return s.upload(host, to=dev)


async def main() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    host = nx.pinned_array(N, np.float32)
    with host.write() as a:
        a[:] = 3.0
    t = await begin_upload(s, host, dev)
    host = t.wait()
    print(float(host.read().sum()))
    for step in range(3):
        with host.write() as a:
            a[:] = float(step)
        t = await begin_upload(s, host, dev)
        host = t.wait()
    host.free()
    dev.free()
    s.close()


asyncio.run(main())
