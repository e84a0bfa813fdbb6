# Plain functions that move and take back a field of their parameter: start(job)
# leaves job.host moved (its transfer in job.up), land(job) takes it back; the caller
# reads job.host only after land().
# RUN: ok
from dataclasses import dataclass

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@dataclass
class Job:
    host: Host
    dev: Dev
    up: nx.Transfer[Host] | None = None


def start(job: Job, s: nx.Stream[nx.Owned]) -> None:
    job.up = s.upload(job.host, to=job.dev)


def land(job: Job) -> None:
    if job.up is not None:
        job.host = job.up.wait()
        job.up = None


def main() -> None:
    s = nx.stream()
    job = Job(nx.pinned_array(8, np.float32), nx.device_array(8, np.float32))
    other = Job(nx.pinned_array(8, np.float32), nx.device_array(8, np.float32))
    start(job, s)
    print(job.dev.shape, other.host.read()[0])
    land(job)
    print(job.host.read()[0])


main()
