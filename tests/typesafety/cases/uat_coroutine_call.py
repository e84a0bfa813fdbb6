# RUN: raises UseAfterTransferError
# A coroutine function holds its arguments from the call on, as a Rust ``async fn``
# captures them: what its body moves is moved at the call. Awaited at once, the move
# has happened by the next line, and the runtime agrees.
from __future__ import annotations

import asyncio

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


async def stage(s: nx.Stream[nx.Lent], host: Host, dev: Dev) -> Host:
    """Uploads ``host`` and gives back the array the transfer returns (a new handle)."""
    return await s.upload(host, to=dev)


async def main() -> None:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    host = nx.pinned_array(8, np.float32)
    back = await stage(s, host, dev)
    back.read()
    host.read()  # E: use-after-transfer "host = await stage(...)"


asyncio.run(main())
