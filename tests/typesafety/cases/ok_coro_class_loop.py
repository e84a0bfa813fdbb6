# RUN: ok
# An async streaming loader: a coroutine method uploads a chunk and gives the buffer
# back; the caller double-buffers with a prefetch task and takes each buffer back from
# its task before it refills it. try/finally makes sure the last task is awaited.
from __future__ import annotations

import asyncio

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 32


class AsyncLoader:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.dev = nx.device_array(N, np.float32)
        self.total = 0.0

    async def push(self, host: Host) -> Host:
        up = self.s.upload(host, to=self.dev)
        await asyncio.sleep(0)
        back = await up
        self.total += float(back.read().sum())
        return back

    async def run(self, chunks: int) -> float:
        a = nx.pinned_array(N, np.float32)
        b = nx.pinned_array(N, np.float32)
        with a.write() as w:
            w[:] = 0.0
        task = asyncio.create_task(self.push(a))
        try:
            for i in range(1, chunks):
                with b.write() as w:
                    w[:] = float(i)
                a = await task  # the previous chunk is back
                task = asyncio.create_task(self.push(b))
                a, b = b, a  # `a` is the one in flight now
        finally:
            a = await task
        a.free()
        b.free()
        return self.total

    def close(self) -> None:
        self.dev.free()
        self.s.close()


async def main() -> None:
    loader = AsyncLoader()
    total = await loader.run(4)
    print(total)
    loader.close()


asyncio.run(main())
