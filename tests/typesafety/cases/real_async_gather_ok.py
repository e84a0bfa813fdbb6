# asyncio.gather over transfers: both uploads are enqueued inside the gather call and
# the buffers come back from it, rebinding the same names. Correct.
# RUN: ok
from __future__ import annotations

import asyncio

import numpy as np

import numbaxfer as nx


async def main() -> float:
    s, t = nx.stream(), nx.stream()
    ha = nx.pinned_array(16, np.float32)
    hb = nx.pinned_array(16, np.float32)
    da = nx.device_array(16, np.float32)
    db = nx.device_array(16, np.float32)
    with ha.write() as a, hb.write() as b:
        a[:] = 1.0
        b[:] = 2.0
    ha, hb = await asyncio.gather(s.upload(ha, to=da), t.upload(hb, to=db))
    total = float(ha.read().sum() + hb.read().sum())
    ua = s.upload(ha, to=da)
    ub = t.upload(hb, to=db)
    homes = await asyncio.gather(ua, ub)
    ha, hb = homes[0], homes[1]
    total += float(ha.read()[0])
    s.close()
    t.close()
    return total


asyncio.run(main())
