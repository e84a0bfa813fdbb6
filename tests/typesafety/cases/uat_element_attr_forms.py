# An attribute of container elements moved in a loop (`for job in jobs: submit(job, s)`,
# submit() moving `job.host`), then read through an element: a later loop's variable,
# an index, a value taken out with pop()/popleft()/next(iter(...)), a dict's values, a
# loop that moved `jobs[i].host` by index, a move on some iterations only.
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


def make() -> Job:
    return Job(nx.pinned_copy(np.zeros(4, np.float32)), nx.device_array(4, np.float32))


def later_loop(s: nx.Stream[nx.Owned]) -> float:
    jobs = [make(), make()]
    for job in jobs:
        submit(job, s)
    total = 0.0
    for job in jobs:
        total += float(job.host.read().sum())  # E: use-after-transfer "\"job.host\" (the \"host\" of an element of \"jobs\") is used after it was moved into Stream.upload() at line 25 in submit() (the \"host\" of the elements of \"jobs\" was moved through the loop variable \"job\" in the loop at line 34)" "\"job.host = job.pending.wait()\""
    return total


def by_index(s: nx.Stream[nx.Owned]) -> float:
    jobs = [make(), make()]
    for job in jobs:
        submit(job, s)
    print(jobs[0].host.shape, len(jobs))  # metadata: no use
    return float(jobs[0].host.read()[0])  # E: use-after-transfer "\"jobs[0].host\" (the \"host\" of an element of \"jobs\") is used" "\"jobs[0].host = jobs[0].pending.wait()\""


def popped(s: nx.Stream[nx.Owned]) -> float:
    jobs = [make(), make()]
    for job in jobs:
        submit(job, s)
    last = jobs.pop()
    return float(last.host.read()[0])  # E: use-after-transfer "\"last.host\" (the \"host\" of an element of \"jobs\") may be used" "\"last.host = last.pending.wait()\""


def popleft_deque(s: nx.Stream[nx.Owned]) -> float:
    jobs = deque([make(), make()])
    for job in jobs:
        submit(job, s)
    first = jobs.popleft()
    return float(first.host.read()[0])  # E: use-after-transfer "\"first.host\" (the \"host\" of an element of \"jobs\") may be used"


def next_of_iter(s: nx.Stream[nx.Owned]) -> float:
    jobs = [make(), make()]
    for job in jobs:
        submit(job, s)
    first = next(iter(jobs))
    return float(first.host.read()[0])  # E: use-after-transfer "\"first.host\" (the \"host\" of an element of \"jobs\") may be used"


def moved_directly(s: nx.Stream[nx.Owned]) -> float:
    jobs = [make(), make()]
    for job in jobs:
        job.pending = s.upload(job.host, to=job.dev)
    return float(jobs[1].host.read()[0])  # E: use-after-transfer "\"jobs[1].host\" (the \"host\" of an element of \"jobs\") is used after it was moved into Stream.upload() at line 77 (the \"host\" of the elements of \"jobs\" was moved through the loop variable \"job\" in the loop at line 76)" "\"jobs[1].host = jobs[1].pending.wait()\""


def dict_values(s: nx.Stream[nx.Owned]) -> float:
    jobs = {"a": make(), "b": make()}
    for job in jobs.values():
        submit(job, s)
    return float(jobs["a"].host.read()[0])  # E: use-after-transfer "\"jobs['a'].host\" (the \"host\" of an element of \"jobs\") is used"


def by_index_loop(s: nx.Stream[nx.Owned]) -> float:
    jobs = [make(), make()]
    for i in range(len(jobs)):
        submit(jobs[i], s)
    total = 0.0
    for job in jobs:
        total += float(job.host.read()[0])  # E: use-after-transfer "\"job.host\" (the \"host\" of an element of \"jobs\") is used" "was moved as \"jobs[i].host\" in the loop at line 90" "\"job.host = job.pending.wait()\""
    return total


def some_iterations(s: nx.Stream[nx.Owned], which: int) -> float:
    jobs = [make(), make()]
    for i, job in enumerate(jobs):
        if i == which:
            submit(job, s)
    return float(jobs[0].host.read()[0])  # E: use-after-transfer "\"jobs[0].host\" (the \"host\" of an element of \"jobs\") may be used" "on some path"
