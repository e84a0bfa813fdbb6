# RUN: ok
# Coroutines created ahead of the await that gives the buffer back: the buffer is not
# touched between the call and the await; the result rebinds it. Also a coroutine that
# only reads its argument, run while the caller keeps reading the same buffer.
from __future__ import annotations

import asyncio

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float64]
Dev = nx.DeviceArray[nx.Owned, np.float64]
N = 16


async def roundtrip(s: nx.Stream[nx.Lent], host: Host, dev: Dev) -> Host:
    host = await s.upload(host, to=dev)
    return await s.download(dev, into=host)


async def mean_of(host: Host) -> float:
    await asyncio.sleep(0)
    with host.lend() as v:
        return float(v.read().mean())


async def main() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float64)
    host = nx.pinned_copy(np.arange(N, dtype=np.float64))
    pending = roundtrip(s, host, dev)
    print("queued")
    host = await pending
    probe = asyncio.create_task(mean_of(host))
    print(float(host.read()[0]))  # reading alongside a reader is fine
    m = await probe
    results = await asyncio.gather(mean_of(host), mean_of(host))
    assert results[0] == m
    for _ in range(2):
        job = roundtrip(s, host, dev)
        host = await job
    try:
        host = await asyncio.wait_for(roundtrip(s, host, dev), timeout=10.0)
    except TimeoutError:
        raise SystemExit("device too slow") from None
    print(host.read()[-1])
    host.free()
    dev.free()
    s.close()


asyncio.run(main())
