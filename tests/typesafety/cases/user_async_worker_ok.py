# An asyncio service: a worker task per stream takes jobs from an asyncio.Queue,
# awaits its upload and download (the event loop keeps running other tasks), and a
# shutdown path completes the one transfer a cancelled job may leave behind.
# RUN: ok
from __future__ import annotations

import asyncio
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def offset(a: Any, v: float) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] += v


class Worker:
    def __init__(self, n: int) -> None:
        self.n = n
        self.s = nx.stream()
        self.dev = nx.device_array(n, np.float32)
        self.host = nx.pinned_array(n, np.float32)

    async def run(self, jobs: asyncio.Queue[float | None], out: list[float]) -> None:
        while True:
            v = await jobs.get()
            if v is None:
                break
            with self.host.write() as a:
                a[:] = v
            up = self.s.upload(self.host, to=self.dev)
            self.host = await up
            self.s.launch(offset, 1, self.n, self.dev, 1.0)
            down = self.s.download(self.dev, into=self.host)
            if v < 0:
                self.host = down.wait()
                continue
            self.host = await down
            out.append(float(self.host.read().sum()))

    def close(self) -> None:
        self.s.close()


async def serve(values: list[float], workers: int = 2, n: int = 8) -> list[float]:
    jobs: asyncio.Queue[float | None] = asyncio.Queue()
    for v in values:
        jobs.put_nowait(v)
    for _ in range(workers):
        jobs.put_nowait(None)
    pool = [Worker(n) for _ in range(workers)]
    out: list[float] = []
    await asyncio.gather(*(w.run(jobs, out) for w in pool))
    for w in pool:
        w.close()
    return sorted(out)


def main() -> list[float]:
    got = asyncio.run(serve([1.0, -5.0, 2.0, 3.0]))
    assert got == [16.0, 24.0, 32.0], got
    return got


main()
