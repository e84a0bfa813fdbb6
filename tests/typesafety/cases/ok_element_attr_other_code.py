# Attributes of container elements moved in a loop, then put back by code the checker
# does not follow element by element: the container handed to a function, a sort key or
# a map() that collects, a comprehension that collects, a method of the object holding
# the container, another task while awaiting. Each clears the mark: no report.
from __future__ import annotations

import asyncio
from dataclasses import dataclass

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@dataclass
class Job:
    host: Host
    dev: nx.DeviceArray[nx.Owned, np.float32]
    pending: nx.Transfer[Host] | None = None


def submit(job: Job, s: nx.Stream[nx.Owned]) -> None:
    job.pending = s.upload(job.host, to=job.dev)


def collect(job: Job) -> None:
    if job.pending is not None:
        job.host = job.pending.wait()
        job.pending = None


def collected_key(job: Job) -> int:
    collect(job)
    return job.host.shape[0]


def make() -> Job:
    return Job(nx.pinned_copy(np.zeros(4, np.float32)), nx.device_array(4, np.float32))


class Batch:
    def __init__(self, s: nx.Stream[nx.Owned]) -> None:
        self.s = s
        self.jobs = [make(), make()]

    def finish(self) -> None:
        for job in self.jobs:
            collect(job)

    def run(self) -> float:
        for job in self.jobs:
            submit(job, self.s)
        self.finish()
        return float(self.jobs[0].host.read()[0])


def sort_key(s: nx.Stream[nx.Owned]) -> float:
    jobs = [make(), make()]
    for job in jobs:
        submit(job, s)
    ordered = sorted(jobs, key=collected_key)
    return float(jobs[0].host.read()[0]) + float(ordered[0].host.read()[0])


def mapped(s: nx.Stream[nx.Owned]) -> float:
    jobs = [make(), make()]
    for job in jobs:
        submit(job, s)
    list(map(collect, jobs))
    return float(jobs[1].host.read()[0])


def comprehension(s: nx.Stream[nx.Owned]) -> float:
    jobs = [make(), make()]
    for job in jobs:
        submit(job, s)
    _ = [collected_key(job) for job in jobs]
    return float(jobs[0].host.read()[0])


async def awaited(s: nx.Stream[nx.Owned], jobs: list[Job]) -> float:
    for job in jobs:
        submit(job, s)
    await asyncio.sleep(0)  # the task that collects them runs meanwhile
    return float(jobs[0].host.read()[0])
