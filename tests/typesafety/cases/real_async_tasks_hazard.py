# asyncio tasks: one task reads its buffer while its upload is in flight (the await
# comes after), and another awaits its download and then also calls wait() on it in
# its cleanup, completing it twice.
# RUN: raises UseAfterTransferError
from __future__ import annotations

import asyncio

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


async def upload_and_check(s: nx.Stream[nx.Owned], host: Host, dev: Dev) -> float:
    up = s.upload(host, to=dev)
    await asyncio.sleep(0)
    first = float(host.read()[0])  # E: use-after-transfer "host" "host = up.wait()"
    host = await up
    return first


async def fetch(s: nx.Stream[nx.Owned], dev: Dev) -> float:
    out = nx.pinned_array(dev.shape, np.float32)
    down = s.download(dev, into=out)
    try:
        out = await down
        return float(out.read().sum())
    finally:
        out = down.wait()  # E: transfer-completed-twice "down"


async def main() -> list[float]:
    s = nx.stream()
    dev = nx.device_array(16, np.float32)
    checker = asyncio.create_task(upload_and_check(s, nx.pinned_array(16, np.float32), dev))
    first = await checker
    got = await asyncio.gather(fetch(s, dev), fetch(s, dev))
    s.close()
    return [first, *got]


asyncio.run(main())
