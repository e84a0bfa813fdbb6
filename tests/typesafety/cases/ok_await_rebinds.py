# `host = await up` takes the buffer back and completes the transfer.
# RUN: ok
import asyncio

import numpy as np

import numbaxfer as nx


async def f() -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    up = s.upload(host, to=dev)
    host = await up
    host.read()
    s.close()


asyncio.run(f())
