# RUN: raises UseAfterTransferError
# Planted bug: handle() awaits the upload and then calls wait() on the same transfer again to "make sure".
"""asyncio worker pool: jobs arrive on an asyncio.Queue, workers each own a stream.

Each worker pulls a Job, uploads its payload, runs a kernel, awaits the download and
posts the result. The upload buffer is awaited back and recycled for the next job the
same worker handles.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def square(a: Any) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] * a[i]


@dataclass(frozen=True)
class Job:
    jid: int
    value: float


class Worker:
    def __init__(self, name: str, width: int) -> None:
        self.name = name
        self.width = width
        self.stream = nx.stream()
        self.dev = nx.device_array(width, np.float32)
        self.staging: Host = nx.pinned_array(width, np.float32)
        self.done = 0

    async def handle(self, job: Job) -> float:
        with self.staging.write() as view:
            view[:] = job.value
        up = self.stream.upload(self.staging, to=self.dev)
        self.stream.launch(square, (self.width + 63) // 64, 64, self.dev)
        self.staging = await up
        self.staging = up.wait()  # E: transfer-completed-twice
        out = nx.pinned_array(self.width, np.float32)
        out = await self.stream.download(self.dev, into=out)
        self.done += 1
        return float(out.read().sum(dtype=np.float64))

    async def run(self, jobs: asyncio.Queue[Job | None], results: dict[int, float]) -> None:
        while (job := await jobs.get()) is not None:
            results[job.jid] = await self.handle(job)
        self.stream.close()


async def serve(n_jobs: int, n_workers: int, width: int) -> dict[int, float]:
    jobs: asyncio.Queue[Job | None] = asyncio.Queue()
    for jid in range(n_jobs):
        jobs.put_nowait(Job(jid, float(jid)))
    for _ in range(n_workers):
        jobs.put_nowait(None)
    results: dict[int, float] = {}
    workers = [Worker(f"w{k}", width) for k in range(n_workers)]
    await asyncio.gather(*(w.run(jobs, results) for w in workers))
    assert sum(w.done for w in workers) == n_jobs
    return results


def main() -> None:
    width = 128
    results = asyncio.run(serve(6, 2, width))
    assert results == {j: float(j * j * width) for j in range(6)}, results
    print("asyncio_worker ok", results)


if __name__ == "__main__":
    main()
