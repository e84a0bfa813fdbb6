# A dataclass job holding a pinned buffer, its device array and its pending transfer;
# helper functions start and land it. Every read comes after land(). Correct.
# RUN: ok
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@dataclass
class Job:
    name: str
    host: Host
    dev: Dev
    up: nx.Transfer[Host] | None = None


def make_job(name: str, n: int, value: float) -> Job:
    host = nx.pinned_array(n, np.float32)
    with host.write() as a:
        a[:] = value
    return Job(name, host, nx.device_array(n, np.float32))


def start(job: Job, s: nx.Stream[nx.Owned]) -> None:
    job.up = s.upload(job.host, to=job.dev)


def land(job: Job) -> None:
    if job.up is not None:
        job.host = job.up.wait()
        job.up = None


def main() -> dict[str, float]:
    s = nx.stream()
    job = make_job("a", 32, 2.0)
    start(job, s)
    land(job)
    sums = {job.name: float(job.host.read().sum())}
    other = make_job("b", 32, 3.0)
    other.up = s.upload(other.host, to=other.dev)
    other.host = other.up.wait()
    other.up = None
    sums[other.name] = float(other.host.read().sum())
    s.close()
    return sums


main()
