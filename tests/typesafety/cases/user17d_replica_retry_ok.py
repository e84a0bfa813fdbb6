# RUN: ok
"""Replicating device blocks to a remote store over a flaky link, on three streams.

Each block is produced on the compute stream, copied to a replica buffer on the copy
stream (numbaxfer orders the copy after the kernel with a device-side event wait) and
downloaded on the egress stream. The link verifies a checksum; a block that arrives
corrupted is downloaded again into the same landing buffer.
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
def produce(a: Any, block: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = block * 100.0 + i


class FlakyLink:
    """Reports a checksum mismatch for the listed (block, attempt) pairs."""

    def __init__(self, corrupt: set[tuple[int, int]]) -> None:
        self.corrupt = corrupt
        self.stored: dict[int, float] = {}

    async def push(self, block: int, attempt: int, data: NDArray[np.float32]) -> bool:
        await asyncio.sleep(0)
        if (block, attempt) in self.corrupt:
            return False
        self.stored[block] = float(data.sum(dtype=np.float64))
        return True


class Replicator:
    def __init__(self, blocks: int, n: int, link: FlakyLink, attempts: int = 3) -> None:
        self.compute, self.copier, self.egress = nx.stream(), nx.stream(), nx.stream()
        self.sources: list[Dev] = [nx.device_array(n, np.float32) for _ in range(blocks)]
        self.replicas: list[Dev] = [nx.device_array(n, np.float32) for _ in range(blocks)]
        self.landing: dict[int, Host] = {b: nx.pinned_array(n, np.float32) for b in range(blocks)}
        self.link = link
        self.attempts = attempts
        self.retries = 0

    async def replicate(self, block: int) -> int:
        src, replica = self.sources[block], self.replicas[block]
        self.compute.launch(produce, 1, 16, src, float(block))
        await self.copier.copy(src, to=replica)  # after the kernel, on the device
        buf = self.landing.pop(block)
        try:
            for attempt in range(self.attempts):
                down = self.egress.download(replica, into=buf)
                buf = await down
                if await self.link.push(block, attempt, buf.read()):
                    return attempt + 1
                self.retries += 1
            raise RuntimeError(f"block {block}: {self.attempts} corrupted transfers")
        finally:
            self.landing[block] = buf

    def close(self) -> None:
        for s in (self.compute, self.copier, self.egress):
            s.close()
        for buf in self.landing.values():
            buf.free()


async def sync_all(rep: Replicator, blocks: int) -> list[int]:
    return list(await asyncio.gather(*(rep.replicate(b) for b in range(blocks))))


def main() -> None:
    blocks, n = 4, 32
    link = FlakyLink(corrupt={(1, 0), (3, 0), (3, 1)})
    rep = Replicator(blocks, n, link)
    try:
        tries = asyncio.run(sync_all(rep, blocks))
    finally:
        rep.close()
    assert tries == [1, 2, 1, 3], tries
    assert rep.retries == 3
    for b in range(blocks):
        assert link.stored[b] == float(b * 100 * n + n * (n - 1) // 2), (b, link.stored[b])
    print(f"replica_retry: {blocks} blocks stored, {rep.retries} retries")


if __name__ == "__main__":
    main()
