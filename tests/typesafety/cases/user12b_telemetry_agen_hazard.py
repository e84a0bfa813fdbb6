# RUN: warns ResourceWarning anywhere
# Planted bug: the samples() async generator has no finally clause, so when the consumer stops early and aclosing() closes it, the prefetched download is dropped without being completed.
"""A telemetry agent: an async generator samples device counters, prefetching the next
sample's download before yielding the current one; the consumer stops at an alert
threshold, and aclosing() makes the generator complete its prefetch on the way out."""

from __future__ import annotations

import asyncio
from contextlib import aclosing
from typing import Any, AsyncIterator

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def reset(counters: Any) -> None:
    for i in range(cuda.grid(1), counters.size, cuda.gridsize(1)):
        counters[i] = 0.0


@cuda.jit
def tick(counters: Any, step: int) -> None:
    for i in range(cuda.grid(1), counters.size, cuda.gridsize(1)):
        counters[i] += step


async def samples(s: nx.Stream[nx.Owned], dev: nx.DeviceArray[nx.Owned, np.float32],
                  bufs: list[Host], limit: int) -> AsyncIterator[float]:
    s.launch(tick, 1, 64, dev, 1)
    pending = s.download(dev, into=bufs.pop())  # E: unfinished-transfer
    for step in range(2, limit + 2):
        current = await pending
        s.launch(tick, 1, 64, dev, step)
        pending = s.download(dev, into=bufs.pop())  # E: unfinished-transfer
        value = float(current.read().sum(dtype=np.float64))
        bufs.append(current)
        yield value


async def monitor(threshold: float) -> tuple[list[float], int]:
    n = 64
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    s.launch(reset, 1, 64, dev)
    bufs = [nx.pinned_array(n, np.float32) for _ in range(2)]
    seen: list[float] = []
    async with aclosing(samples(s, dev, bufs, limit=10)) as feed:  # type: ignore[type-var]
        async for value in feed:
            seen.append(value)
            if value >= threshold:
                break
    for buf in bufs:
        buf.free()
    s.close()
    return seen, len(bufs)


def main() -> None:
    seen, home = asyncio.run(monitor(threshold=600.0))
    assert seen == [64.0, 192.0, 384.0, 640.0]
    print("samples", seen, "buffers home", home)


if __name__ == "__main__":
    main()
