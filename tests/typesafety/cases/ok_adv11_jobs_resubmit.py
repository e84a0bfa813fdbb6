# RUN: ok
# collect() completes each job's transfer; the jobs are resubmitted (a loop storing a new
# transfer, a method of the job) before the next collect().
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8


@dataclass
class Job:
    name: str
    dev: Dev
    transfer: nx.Transfer[Host]
    result: Host | None = None

    def resubmit(self, s: nx.Stream[nx.Owned]) -> None:
        assert self.result is not None
        self.transfer = s.download(self.dev, into=self.result)
        self.result = None


def collect(jobs: list[Job]) -> None:
    for j in jobs:
        j.result = j.transfer.wait()


def main() -> None:
    s = nx.stream()
    jobs: list[Job] = []
    for k in range(3):
        dev = nx.device_array(N, np.float32)
        jobs.append(Job(f"j{k}", dev, s.download(dev, into=nx.pinned_array(N, np.float32))))
    collect(jobs)
    for j in jobs:
        assert j.result is not None
        j.transfer = s.download(j.dev, into=j.result)
        j.result = None
    collect(jobs)
    for j in jobs:
        j.resubmit(s)
    collect(jobs)
    print([j.name for j in jobs if j.result is not None])
    s.close()


if __name__ == "__main__":
    main()
