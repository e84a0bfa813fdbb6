# Queues of jobs whose `host` a loop moved (submit() in `for job in jobs`): a value taken
# out (popleft(), pop(), an index, dict.get()) whose `host` is read before collect().
# Each may be one whose upload still owns it ("may": the checker does not know which).
# RUN: raises UseAfterTransferError
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


def read_before_collect(s: nx.Stream[nx.Owned]) -> float:
    jobs = deque([make(), make()])
    for job in jobs:
        submit(job, s)
    out = 0.0
    while jobs:
        job = jobs.popleft()
        out += float(job.host.read()[0])  # E: use-after-transfer "\"job.host\" (the \"host\" of an element of \"jobs\") may be used" "\"job.host = job.pending.wait()\""
        collect(job)
    return out


def stack_order(s: nx.Stream[nx.Owned]) -> float:
    jobs = [make(), make()]
    for job in jobs:
        submit(job, s)
    out = 0.0
    while jobs:
        last = jobs.pop()
        with last.host.write() as a:  # E: use-after-transfer "\"last.host\" (the \"host\" of an element of \"jobs\") may be used"
            a[0] = 1.0
        collect(last)
        out += float(last.host.read()[0])
    return out


def first_only(s: nx.Stream[nx.Owned]) -> float:
    jobs = [make(), make()]
    for job in jobs:
        submit(job, s)
    head = jobs[0]
    out = float(head.host.read()[0])  # E: use-after-transfer "\"head.host\" (the \"host\" of an element of \"jobs\") may be used"
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
        out = float(got.host.read()[0])  # E: use-after-transfer "\"got.host\" (the \"host\" of an element of \"jobs\") may be used"
        collect(got)
    for job in jobs.values():
        collect(job)
    return out


def main() -> None:
    s = nx.stream()
    read_before_collect(s)
    s.close()


main()
