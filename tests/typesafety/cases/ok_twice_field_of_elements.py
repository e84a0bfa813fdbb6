# RUN: ok
# A loop completing a transfer field of list elements, then a later loop over them: no
# report where the first loop clears the field, or where the second selects the pending
# ones through another field of the element (the object's own protocol).
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@dataclass
class Job:
    name: str
    transfer: nx.Transfer[Host] | None = None
    result: float | None = None


def submit(s: nx.Stream[nx.Owned], name: str) -> Job:
    dev = nx.device_array(8, np.float32)
    return Job(name, s.download(dev, into=nx.pinned_array(8, np.float32)))


def collect(job: Job) -> Host:
    assert job.transfer is not None
    host = job.transfer.wait()
    job.result = float(host.read().sum())
    return host


def collect_and_clear(job: Job) -> Host:
    assert job.transfer is not None
    host = job.transfer.wait()
    job.transfer = None
    return host


def main() -> None:
    s = nx.stream()
    jobs = [submit(s, f"j{k}") for k in range(3)]
    for job in jobs:
        if job.transfer is not None and job.transfer.done():
            collect(job)
    for job in jobs:
        if job.result is None:  # the pending ones, by the job's own record
            collect(job)
    again = [submit(s, f"k{k}") for k in range(2)]
    for job in again:
        if job.transfer is not None and job.transfer.done():
            collect_and_clear(job)
    for job in again:
        if job.transfer is not None:
            collect_and_clear(job)
    s.close()


if __name__ == "__main__":
    main()
