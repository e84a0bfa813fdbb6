# Async producer/consumer with asyncio.Queue: the producer task enqueues upload ->
# kernel -> download per item and puts the download on a bounded queue; the consumer
# task awaits each download (the event loop keeps running) and records the result.
# Correct: `out = await down` completes the download, once.
# RUN: ok
from __future__ import annotations

import asyncio
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N = 8
Item = tuple[int, nx.Transfer[Host]] | None


@cuda.jit
def add_index(a: Any) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] += i


async def producer(s: nx.Stream[nx.Owned], q: asyncio.Queue[Item], items: int) -> None:
    dev = nx.device_array(N, np.float32)
    host = nx.pinned_array(N, np.float32)
    for k in range(items):
        with host.write() as a:
            a[:] = float(k)
        host = await s.upload(host, to=dev)
        s.launch(add_index, 1, N, dev)
        await q.put((k, s.download(dev, into=nx.pinned_array(N, np.float32))))
    await q.put(None)


async def consumer(q: asyncio.Queue[Item], results: dict[int, float]) -> None:
    while (item := await q.get()) is not None:
        k, down = item
        out = await down
        results[k] = float(out.read().sum())
        out.free()


async def run(items: int) -> dict[int, float]:
    s = nx.stream()
    q: asyncio.Queue[Item] = asyncio.Queue(maxsize=2)
    results: dict[int, float] = {}
    await asyncio.gather(producer(s, q, items), consumer(q, results))
    s.close()
    return results


def main() -> None:
    results = asyncio.run(run(3))
    base = float(sum(range(N)))
    assert results == {k: N * k + base for k in range(3)}, results


main()
