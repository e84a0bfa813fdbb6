# RUN: raises UseAfterTransferError via-call
# A loop completing a transfer field of the elements of a list (directly, or through a
# function that waits it and leaves it there), then a later loop completing that field
# again: transfer-completed-twice ("may" where the first loop completed only some).
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


def sweeps() -> None:
    s = nx.stream()
    jobs = [submit(s, f"j{k}") for k in range(3)]
    for job in jobs:
        if job.transfer is not None and job.transfer.done():
            collect(job)
    for job in jobs:
        if job.transfer is not None:
            collect(job)  # E: transfer-completed-twice "Transfer \"job.transfer\" (an element of \"jobs\", which still holds the transfers the loop at line 38 completed) may be completed twice"
    s.close()


def direct() -> None:
    s = nx.stream()
    jobs = [submit(s, f"j{k}") for k in range(2)]
    for job in jobs:
        assert job.transfer is not None
        job.transfer.wait()
    for job in jobs:
        assert job.transfer is not None
        job.transfer.wait()  # E: transfer-completed-twice "is completed twice"
    s.close()


if __name__ == "__main__":
    sweeps()
