# `await up` completes the transfer (and gives the array back): a later wait() is a
# second completion.
# RUN: raises UseAfterTransferError
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
    again = up.wait()  # E: transfer-completed-twice "\"up\" is completed twice" "line 16"


asyncio.run(f())
