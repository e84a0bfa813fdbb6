# RUN: raises UseAfterTransferError via-call
# XFAIL: miss (line 59): get() awaited its transfer but left it in self.pending, so it is completed a second time here
# Planted bug: get() awaited its transfer but left it in self.pending, so it is completed a second time here
"""An asyncio frame server: decoded frames live on the device; client tasks ask for
frames by index and the fetcher downloads them into pinned buffers, awaiting each
transfer without blocking the event loop. The fetcher prefetches the next frame of
each request; `aclose()` completes whatever prefetches nobody asked for.
"""

from __future__ import annotations

import asyncio
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def decode(frame: Any, index: int) -> None:
    for i in range(cuda.grid(1), frame.size, cuda.gridsize(1)):
        frame[i] = index * 100.0 + i


class FrameFetcher:
    def __init__(self, frames: int, n: int) -> None:
        self.stream = nx.stream()
        self.store: list[Dev] = [nx.device_array(n, np.float32) for _ in range(frames)]
        for k, d in enumerate(self.store):
            self.stream.launch(decode, 2, 64, d, k)
        self.free: list[Host] = [nx.pinned_array(n, np.float32) for _ in range(4)]
        self.pending: dict[int, nx.Transfer[Host]] = {}
        self.served: list[int] = []

    def _request(self, i: int) -> None:
        if i in self.pending or i >= len(self.store):
            return
        buf = self.free.pop() if self.free else nx.pinned_array(self.store[i].size, np.float32)
        self.pending[i] = self.stream.download(self.store[i], into=buf)

    async def get(self, i: int) -> NDArray[np.float32]:
        self._request(i)
        self._request(i + 1)  # prefetch
        await asyncio.sleep(0)
        buf = await self.pending[i]
        frame: NDArray[np.float32] = buf.read().copy()
        self.free.append(buf)
        self.served.append(i)
        return frame

    async def aclose(self) -> None:
        for i in sorted(self.pending):
            self.free.append(await self.pending[i])  # E: transfer-completed-twice
        self.pending.clear()
        self.stream.close()


async def client(fetcher: FrameFetcher, wanted: list[int]) -> list[float]:
    out = []
    for i in wanted:
        frame = await fetcher.get(i)
        out.append(float(frame[0]))
    return out


async def serve() -> tuple[list[list[float]], FrameFetcher]:
    asyncio.get_running_loop().slow_callback_duration = 5.0  # the simulator is slow
    fetcher = FrameFetcher(frames=8, n=256)
    first, second = await asyncio.gather(client(fetcher, [0, 2, 4]), client(fetcher, [6, 1]))
    await fetcher.aclose()
    return [first, second], fetcher


def main() -> None:
    results, fetcher = asyncio.run(serve())
    assert results == [[0.0, 200.0, 400.0], [600.0, 100.0]], results
    assert sorted(fetcher.served) == [0, 1, 2, 4, 6]
    print("async_frame_fetch: ok", results, len(fetcher.free), "buffers home")


if __name__ == "__main__":
    main()
