# A transfer awaited through asyncio.shield / asyncio.gather / asyncio.wait_for is
# completed: a later wait() is a second completion, and the old name of a buffer whose
# array came back under another name still holds the moved one.
# RUN: raises UseAfterTransferError
from __future__ import annotations

import asyncio

import numpy as np

import numbaxfer as nx


async def shielded(s: nx.Stream[nx.Owned]) -> None:
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    up = s.upload(host, to=dev)
    host = await asyncio.shield(up)
    host = up.wait()  # E: transfer-completed-twice "is completed twice"


async def gathered(s: nx.Stream[nx.Owned]) -> None:
    ha = nx.pinned_array(8, np.float32)
    hb = nx.pinned_array(8, np.float32)
    da = nx.device_array(8, np.float32)
    db = nx.device_array(8, np.float32)
    ua = s.upload(ha, to=da)
    ub = s.upload(hb, to=db)
    homes = await asyncio.gather(ua, ub)
    print(homes)
    hb = ub.wait()  # E: transfer-completed-twice "is completed twice"


async def other_name(s: nx.Stream[nx.Owned]) -> None:
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    up = s.upload(host, to=dev)
    back = await asyncio.wait_for(up, 5.0)
    print(back)
    host.read()  # E: use-after-transfer "is used"


s = nx.stream()
asyncio.run(shielded(s))
