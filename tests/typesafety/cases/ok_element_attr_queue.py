# Queues of jobs whose `host` a loop moved (submit() in `for job in jobs`): each value
# taken out (popleft(), pop(), an index, dict.get()) is collected before its `host` is
# read; a job not ready yet goes back into the queue. No report.
# RUN: ok
from __future__ import annotations

from collections import deque
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


def make() -> Job:
    return Job(nx.pinned_copy(np.zeros(4, np.float32)), nx.device_array(4, np.float32))


def drain(s: nx.Stream[nx.Owned]) -> float:
    jobs = deque([make(), make(), make()])
    for job in jobs:
        submit(job, s)
    out = 0.0
    while jobs:
        job = jobs.popleft()
        assert job.pending is not None
        if not job.pending.done():
            jobs.append(job)
            continue
        collect(job)
        out += float(job.host.read()[0])
    return out


def stack_order(s: nx.Stream[nx.Owned]) -> float:
    jobs = [make(), make()]
    for job in jobs:
        submit(job, s)
    out = 0.0
    while jobs:
        last = jobs.pop()
        collect(last)
        out += float(last.host.read()[0])
    return out


def first_only(s: nx.Stream[nx.Owned]) -> float:
    jobs = [make(), make()]
    for job in jobs:
        submit(job, s)
    head = jobs[0]
    print(head.host.shape)
    collect(head)
    out = float(head.host.read()[0])
    for job in jobs:
        collect(job)
    return out


def by_name(s: nx.Stream[nx.Owned]) -> float:
    jobs = {"a": make(), "b": make()}
    for job in jobs.values():
        submit(job, s)
    got = jobs.get("a")
    out = 0.0
    if got is not None:
        collect(got)
        out = float(got.host.read()[0])
    for job in jobs.values():
        collect(job)
    return out


def main() -> None:
    s = nx.stream()
    assert drain(s) == 0.0
    assert stack_order(s) == 0.0
    assert first_only(s) == 0.0
    assert by_name(s) == 0.0
    s.close()


main()
