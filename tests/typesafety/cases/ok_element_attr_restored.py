# Correct programs around attributes of container elements moved in a loop: a later loop
# that takes every one back (through a function, or inline), a take-back through an
# alias made before the container or through a copy of it, a store into the container,
# the container handed to other code, and metadata read meanwhile. No report.
# RUN: ok
from __future__ import annotations

from collections.abc import Iterator
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


def collect_all(jobs: list[Job]) -> None:
    for job in jobs:
        collect(job)


def make() -> Job:
    return Job(nx.pinned_copy(np.zeros(4, np.float32)), nx.device_array(4, np.float32))


def total(jobs: list[Job]) -> float:
    return sum(float(job.host.read().sum()) for job in jobs)


def restored_by_loop(s: nx.Stream[nx.Owned]) -> float:
    jobs = [make(), make()]
    for job in jobs:
        submit(job, s)
    print(len(jobs), jobs[0].host.shape, jobs[1].host.nbytes)  # metadata
    for job in jobs:
        collect(job)
    out = float(jobs[0].host.read()[0])
    for job in jobs:
        out += float(job.host.read()[0])
    return out


def restored_inline(s: nx.Stream[nx.Owned]) -> float:
    jobs = [make(), make()]
    for job in jobs:
        submit(job, s)
    for job in jobs:
        assert job.pending is not None
        job.host = job.pending.wait()
        job.pending = None
    return float(jobs[1].host.read()[0])


def restored_by_index(s: nx.Stream[nx.Owned]) -> float:
    jobs = [make(), make()]
    for i in range(len(jobs)):
        submit(jobs[i], s)
    for i in range(len(jobs)):
        collect(jobs[i])
    return float(jobs[0].host.read()[0])


def restored_through_names(s: nx.Stream[nx.Owned]) -> float:
    a = make()
    b = make()
    jobs = [a, b]
    for job in jobs:
        submit(job, s)
    collect(a)
    collect(b)
    return float(jobs[0].host.read()[0]) + total(jobs)


def restored_through_copy(s: nx.Stream[nx.Owned]) -> float:
    jobs = [make(), make()]
    for job in jobs:
        submit(job, s)
    pending = list(jobs)
    for job in pending:
        collect(job)
    out = 0.0
    for job in jobs:
        out += float(job.host.read()[0])
    return out


def handed_on(s: nx.Stream[nx.Owned]) -> float:
    jobs = [make(), make()]
    for job in jobs:
        submit(job, s)
    collect_all(jobs)
    return float(jobs[0].host.read()[0])


def stored_into(s: nx.Stream[nx.Owned]) -> float:
    jobs = [make()]
    for job in jobs:
        submit(job, s)
    collect(jobs[0])
    jobs[0] = make()
    return float(jobs[0].host.read()[0])


def drained(s: nx.Stream[nx.Owned]) -> Iterator[float]:
    jobs = [make(), make()]
    for job in jobs:
        submit(job, s)
    yield 0.0  # the consumer collects them meanwhile
    for job in jobs:
        yield float(job.host.read()[0])


def main() -> None:
    s = nx.stream()
    assert restored_by_loop(s) == 0.0
    assert restored_inline(s) == 0.0
    assert restored_by_index(s) == 0.0
    assert restored_through_names(s) == 0.0
    assert restored_through_copy(s) == 0.0
    assert handed_on(s) == 0.0
    assert stored_into(s) == 0.0
    s.close()


main()
