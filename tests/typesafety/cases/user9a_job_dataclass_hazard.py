# RUN: raises UseAfterTransferError via-call
# Planted bug: collect() no longer clears job.transfer after waiting it, and the second sweep selects jobs by 'transfer is not None' instead of 'result is None', so already-collected jobs are waited a second time.
"""A job scheduler that tracks each job's buffers and in-flight transfer in a dataclass."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def cumulative(a: Any, k: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = a[i] + k * i


@dataclass
class Job:
    name: str
    dev: Dev
    transfer: nx.Transfer[Host] | None = None
    result: float | None = None


def submit(name: str, n: int, k: float, s: nx.Stream[nx.Lent]) -> Job:
    dev = nx.device_array(n, np.float32)
    s.upload_staged(np.zeros(n, np.float32), to=dev)
    s.launch(cumulative, 1, 64, dev, k)
    out = nx.pinned_array(n, np.float32)
    return Job(name, dev, s.download(dev, into=out))


def collect(job: Job) -> Host:
    assert job.transfer is not None, f"{job.name} was never submitted"
    host = job.transfer.wait()
    job.result = float(host.read().sum())
    return host


def main() -> None:
    s = nx.stream()
    jobs = [submit(f"job{k}", 32, float(k), s) for k in range(1, 4)]
    hosts: list[Host] = []
    for job in jobs:
        if job.transfer is not None and job.transfer.done():
            hosts.append(collect(job))
    for job in jobs:
        if job.transfer is not None:
            hosts.append(collect(job))  # E: transfer-completed-twice
    for job in jobs:
        job.dev.free()
    s.close()
    for k, job in enumerate(jobs, start=1):
        assert job.result == k * sum(range(32)), (job.name, job.result)
    print({job.name: job.result for job in jobs})
    for h in hosts:
        h.free()


if __name__ == "__main__":
    main()
