# Async functions are checked like any other.
import numpy as np

import numbaxfer as nx

import asyncio


async def f() -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    up = s.upload(host, to=dev)
    await asyncio.sleep(0)
    host.read()  # E: use-after-transfer "is used"
    host = up.wait()
