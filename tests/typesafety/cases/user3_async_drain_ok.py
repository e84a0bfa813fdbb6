# RUN: ok
# An asyncio service step: per-request device results are downloaded, awaited one by
# one (the event loop keeps serving meanwhile), and a shutdown path completes whatever
# is still pending if a request failed half-way.
from __future__ import annotations

import asyncio
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def score(out: Any, request: int) -> None:
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        out[i] = request * 10 + i


async def heartbeat(ticks: list[int]) -> None:
    for k in range(3):
        ticks.append(k)
        await asyncio.sleep(0)


async def serve(requests: int = 3, n: int = 8) -> list[float]:
    s = nx.stream()
    devs = [nx.device_array(n, np.float32) for _ in range(requests)]
    for r, dev in enumerate(devs):
        s.launch(score, 1, 32, dev, r)
    pending = [s.download(dev, into=nx.pinned_array(n, np.float32)) for dev in devs]
    ticks: list[int] = []
    beat = asyncio.create_task(heartbeat(ticks))
    results: list[float] = []
    try:
        for t in pending:
            out = await t  # completes the download without blocking the loop
            results.append(float(out.read().sum()))
    finally:
        for t in pending:
            if not t.completed:  # only those a failure left behind
                t.wait()
        await beat
    s.close()
    return results


def main() -> None:
    results = asyncio.run(serve())
    assert results == [28.0, 108.0, 188.0], results


if __name__ == "__main__":
    main()
