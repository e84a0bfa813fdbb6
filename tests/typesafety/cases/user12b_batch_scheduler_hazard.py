# RUN: warns ResourceWarning anywhere
# Planted bug: _submit() discards the upload transfer returned by the _stage() helper, trusting stream order for the kernel, so the staging upload is never completed.
"""A batch scheduler: jobs are queued, then submitted in fixed-size batches; each job
stages its payload, runs a kernel and downloads, and flush() retires a whole batch."""

from __future__ import annotations

from collections import deque
from typing import Any, NamedTuple

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def offset(a: Any, value: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] += value


class Job(NamedTuple):
    job_id: int
    payload: NDArray[np.float32]
    bias: float


class InFlight(NamedTuple):
    job_id: int
    download: nx.Transfer[Host]
    dev: Dev


class BatchScheduler:
    def __init__(self, batch_size: int) -> None:
        self.batch_size = batch_size
        self.stream = nx.stream()
        self.queue: deque[Job] = deque()
        self.results: dict[int, float] = {}

    def enqueue(self, job: Job) -> None:
        self.queue.append(job)

    def _stage(self, job: Job, dev: Dev) -> nx.Transfer[Host]:
        host = nx.pinned_copy(job.payload)
        return self.stream.upload(host, to=dev)

    def _submit(self, job: Job) -> InFlight:
        dev = nx.device_array(job.payload.size, np.float32)
        self._stage(job, dev)  # E: unfinished-transfer
        self.stream.launch(offset, 2, 64, dev, job.bias)
        out = nx.pinned_array(job.payload.size, np.float32)
        down = self.stream.download(dev, into=out)
        return InFlight(job.job_id, down, dev)

    def _flush(self, batch: list[InFlight]) -> None:
        for item in batch:
            out = item.download.wait()
            self.results[item.job_id] = float(out.read().sum(dtype=np.float64))
            out.free()
            item.dev.free()

    def run(self) -> int:
        batches = 0
        while self.queue:
            batch: list[InFlight] = []
            while self.queue and len(batch) < self.batch_size:
                batch.append(self._submit(self.queue.popleft()))
            self._flush(batch)
            batches += 1
        return batches

    def close(self) -> None:
        self.stream.close()


def main() -> None:
    n = 128
    sched = BatchScheduler(batch_size=3)
    for k in range(7):
        sched.enqueue(Job(k, np.full(n, float(k), dtype=np.float32), bias=1.0))
    try:
        batches = sched.run()
    finally:
        sched.close()
    assert batches == 3
    assert sched.results == {k: float((k + 1) * n) for k in range(7)}
    print("batches", batches, "results", sched.results)


if __name__ == "__main__":
    main()
