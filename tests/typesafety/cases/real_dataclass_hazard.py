# A dataclass job: the caller reads job.host after start() moved it into an upload
# (through the field, in another function), and a second job's buffer is read through
# the local name it was built from, after its field was moved.
# XFAIL: miss: a dataclass field (job.host) moved in another function (start(job, s)) and read by the caller; a name (buf) stored in a dataclass field, read after the field was moved
# RUN: raises UseAfterTransferError [via-call]
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


def start(job: Job, s: nx.Stream[nx.Owned]) -> None:
    job.up = s.upload(job.host, to=job.dev)


def land(job: Job) -> None:
    if job.up is not None:
        job.host = job.up.wait()
        job.up = None


def main() -> float:
    s = nx.stream()
    job = Job("a", nx.pinned_array(32, np.float32), nx.device_array(32, np.float32))
    start(job, s)
    total = float(job.host.read().sum())  # E: use-after-transfer "job.host"
    land(job)
    buf = nx.pinned_array(32, np.float32)
    other = Job("b", buf, nx.device_array(32, np.float32))
    other.up = s.upload(other.host, to=other.dev)
    total += float(buf.read().sum())  # E: use-after-transfer "buf"
    land(other)
    s.close()
    return total


main()
