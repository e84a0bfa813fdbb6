# RUN: raises UseAfterTransferError
# XFAIL: miss (line 57): handle() (run as asyncio tasks) leaves its awaited download in self.pending and drain() pops and waits every element again; completions by coroutines run as tasks are not followed
# Planted bug: handle() awaits its download but leaves it in the gateway's pending list, so shutdown()'s drain() waits the same transfer a second time.
"""An asyncio gateway: each request task gets a private stream, awaits its upload and its
download; the gateway tracks downloads still in flight so shutdown can drain them."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def affine(a: Any, mul: float, add: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = a[i] * mul + add


@dataclass
class Gateway:
    n: int
    pending: list[nx.Transfer[Host]] = field(default_factory=list)
    served: dict[str, float] = field(default_factory=dict)
    sem: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(2))

    async def handle(self, name: str, value: float) -> float:
        async with self.sem:
            s = nx.stream()
            dev = nx.device_array(self.n, np.float32)
            host = nx.pinned_copy(np.full(self.n, value, dtype=np.float32))
            try:
                host = await s.upload(host, to=dev)
                s.launch(affine, 2, 64, dev, 2.0, 1.0)
                down = s.download(dev, into=host)
                self.pending.append(down)
                await asyncio.sleep(0)
                host = await down
                total = float(host.read().sum(dtype=np.float64))
                host.free()
                self.served[name] = total
                return total
            finally:
                dev.free()
                s.close()

    async def drain(self) -> None:
        while self.pending:
            t = self.pending.pop()
            t.wait().free()  # E: transfer-completed-twice

    async def shutdown(self) -> int:
        left = len(self.pending)
        await self.drain()
        return left


async def serve(n: int) -> tuple[list[float], int]:
    gw = Gateway(n)
    totals = await asyncio.gather(*(gw.handle(f"req{i}", float(i)) for i in range(5)))
    left = await gw.shutdown()
    return list(totals), left


def main() -> None:
    n = 128
    totals, left = asyncio.run(serve(n))
    assert totals == [float((2 * i + 1) * n) for i in range(5)]
    assert left == 0
    print("gateway totals", totals)


if __name__ == "__main__":
    main()
