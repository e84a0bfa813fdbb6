# asyncio.gather over transfers whose result is thrown away: the buffers that come back
# are new handles, and the old names still hold the moved ones.
# RUN: raises UseAfterTransferError
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
    ua = s.upload(ha, to=da)
    ub = t.upload(hb, to=db)
    await asyncio.gather(ua, ub)
    total = float(ha.read().sum())  # E: use-after-transfer "ha"
    s.close()
    t.close()
    return total


asyncio.run(main())
