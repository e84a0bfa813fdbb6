# RUN: raises UseAfterTransferError via-call
# XFAIL: miss (line 80): launches on the device view of the mapping that wait() has just ended
# Planted bug: launches on the device view of the mapping that wait() has just ended
"""A long-running device job whose per-thread progress counters live in mapped host
memory, watched by an asyncio monitor while the job runs.

Each pass maps the counters (``stream.map``) and runs the work kernel,
which bumps its thread's counter per element; the monitor peeks at them (racy by
design) until the pass is done, then the pass is completed with ``mapping.wait()``
and the counters are read for real and zeroed for the next pass.
"""

from __future__ import annotations

import asyncio
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

THREADS = 16


@cuda.jit
def zero(p: Any) -> None:
    i = cuda.grid(1)
    if i < p.size:
        p[i] = 0


@cuda.jit
def work(data: Any, progress: Any, k: float) -> None:
    t = cuda.grid(1)
    for i in range(t, data.size, cuda.gridsize(1)):
        data[i] += k
        progress[t] += 1


class ProgressJob:
    def __init__(self, n: int) -> None:
        self.n = n
        self.stream = nx.stream()
        self.data = nx.device_array(n, np.float32)
        first = self.stream.map(nx.mapped_array(THREADS, np.int32))
        self.stream.launch(zero, 1, THREADS, first.device)  # counters start at zero
        self.progress: nx.MappedArray[nx.Owned, np.int32] | None = first.wait()
        self._mapping: nx.Mapping[np.int32] | None = None
        self.view: nx.DeviceArray[nx.Owned, np.int32] | None = None
        self.peeks = 0
        init = nx.pinned_copy(np.zeros(n, dtype=np.float32))
        init = self.stream.upload(init, to=self.data).wait()
        init.free()

    def start_pass(self, k: int) -> None:
        counters, self.progress = self.progress, None
        assert counters is not None, "a pass is already running"
        self._mapping = self.stream.map(counters)
        self.view = self._mapping.device
        self.stream.launch(work, 1, THREADS, self.data, self.view, float(k))

    async def monitor(self) -> None:
        mapping = self._mapping
        assert mapping is not None
        while True:
            seen = int(mapping.racy_peek().sum())  # a progress bar: may be stale
            self.peeks += 1
            assert 0 <= seen <= self.n
            if mapping.done():
                return
            await asyncio.sleep(0)

    def finish_pass(self) -> int:
        mapping, self._mapping = self._mapping, None
        assert mapping is not None
        self.progress = mapping.wait()
        count = int(self.progress.read().sum())
        if self.view is not None:  # zero the counters for the next pass, on the device
            self.stream.launch(zero, 1, THREADS, self.view)  # E: use-after-transfer
        return count

    def result(self) -> float:
        out = nx.pinned_array(self.n, np.float32)
        out = self.stream.download(self.data, into=out).wait()
        total = float(out.read().sum(dtype=np.float64))
        out.free()
        self.stream.close()
        return total


async def heartbeat(beats: list[int]) -> None:
    for i in range(3):
        beats.append(i)
        await asyncio.sleep(0)


async def run(job: ProgressJob, passes: int) -> list[int]:
    counted: list[int] = []
    beats: list[int] = []
    for k in range(1, passes + 1):
        job.start_pass(k)
        await asyncio.gather(job.monitor(), heartbeat(beats))
        counted.append(job.finish_pass())
    assert len(beats) == 3 * passes
    return counted


def main() -> None:
    n, passes = 64, 3
    job = ProgressJob(n)
    counted = asyncio.run(run(job, passes))
    assert counted == [n] * passes, counted
    total = job.result()
    assert total == float(n * sum(range(1, passes + 1))), total
    assert job.peeks >= passes
    print(f"mapped_progress: {passes} passes, {job.peeks} progress peeks, total {total}")


if __name__ == "__main__":
    main()
