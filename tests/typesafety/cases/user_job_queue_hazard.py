# A batch scheduler: each Job is a dataclass holding its pinned input, its device
# buffer and its pending upload; submit() starts the upload, collect() takes the buffer
# back, and the main loop drains a deque of jobs with a `while`, retrying a job whose
# upload is not done yet and skipping empty ones.
# Bug: the empty-job test was put before collect(): it reads job.host while the job's
# upload still owns it.
# RUN: raises UseAfterTransferError
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def negate(a: Any) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] = -a[i]


@dataclass
class Job:
    name: str
    host: Host
    dev: nx.DeviceArray[nx.Owned, np.float32]
    pending: nx.Transfer[Host] | None = None


def submit(job: Job, s: nx.Stream[nx.Owned]) -> None:
    job.pending = s.upload(job.host, to=job.dev)
    s.launch(negate, 1, job.dev.size, job.dev)


def collect(job: Job) -> None:
    if job.pending is not None:
        job.host = job.pending.wait()
        job.pending = None


def make(name: str, values: list[float]) -> Job:
    host = nx.pinned_copy(np.asarray(values, dtype=np.float32))
    return Job(name, host, nx.device_array(host.shape[0], np.float32))


def main() -> dict[str, float]:
    s = nx.stream()
    jobs = deque([make("a", [1.0, 2.0]), make("b", [0.0]), make("c", [3.0, 4.0, 5.0])])
    for job in jobs:
        submit(job, s)
    totals: dict[str, float] = {}
    while jobs:
        job = jobs.popleft()
        assert job.pending is not None
        if not job.pending.done():
            jobs.append(job)
            continue
        if job.host.shape[0] == 1 and float(job.host.read()[0]) == 0.0:  # E: use-after-transfer "\"job.host\" (the \"host\" of an element of \"jobs\") may be used" "\"job.host = job.pending.wait()\""
            collect(job)
            continue
        collect(job)
        out = nx.pinned_array(job.host.shape[0], np.float32)
        out = s.download(job.dev, into=out).wait()
        totals[job.name] = float(out.read().sum())
    s.close()
    assert totals == {"a": -3.0, "c": -12.0}, totals
    return totals


main()
