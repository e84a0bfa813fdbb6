# Awaiting a transfer through asyncio.wait_for, asyncio.shield or asyncio.gather(a, b)
# completes it like `await t`: the buffers come back from the await's value, and a
# timeout leaves the transfer pending, so the handler's wait() is the first.
# RUN: ok
from __future__ import annotations

import asyncio

import numpy as np

import numbaxfer as nx


async def timed(s: nx.Stream[nx.Owned], timeout: float) -> float:
    host = nx.pinned_copy(np.ones(8, np.float32))
    dev = nx.device_array(8, np.float32)
    up = s.upload(host, to=dev)
    try:
        host = await asyncio.wait_for(up, timeout)
    except TimeoutError:
        host = up.wait()
    return float(host.read().sum())


async def shielded(s: nx.Stream[nx.Owned]) -> float:
    host = nx.pinned_copy(np.ones(8, np.float32))
    dev = nx.device_array(8, np.float32)
    up = s.upload(host, to=dev)
    host = await asyncio.shield(up)
    if up.completed:
        host.read()
    return float(host.read().sum())


async def gathered(s: nx.Stream[nx.Owned], t: nx.Stream[nx.Owned]) -> float:
    ha = nx.pinned_copy(np.ones(8, np.float32))
    hb = nx.pinned_copy(np.ones(8, np.float32))
    da = nx.device_array(8, np.float32)
    db = nx.device_array(8, np.float32)
    ua = s.upload(ha, to=da)
    ub = t.upload(hb, to=db)
    ha, hb = await asyncio.gather(ua, ub)
    return float(ha.read().sum() + hb.read().sum())


async def gathered_with_exceptions(s: nx.Stream[nx.Owned]) -> float:
    # return_exceptions=True: a result may be an error, its transfer still pending
    host = nx.pinned_copy(np.ones(8, np.float32))
    dev = nx.device_array(8, np.float32)
    up = s.upload(host, to=dev)
    (got,) = await asyncio.gather(up, return_exceptions=True)
    if isinstance(got, BaseException):
        host = up.wait()
    else:
        host = got
    return float(host.read().sum())


async def main() -> list[float]:
    s, t = nx.stream(), nx.stream()
    got = [
        await timed(s, 5.0),
        await shielded(s),
        await gathered(s, t),
        await gathered_with_exceptions(s),
    ]
    s.close()
    t.close()
    assert got == [8.0, 8.0, 16.0, 8.0], got
    return got


asyncio.run(main())
