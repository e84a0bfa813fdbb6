# RUN: ok
# collect() completes every job; ensure() completes only the jobs without a result
# (none after collect()), so calling it again is harmless.
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
    transfer: nx.Transfer[Host]
    result: Host | None = None


def collect(jobs: list[Job]) -> None:
    for j in jobs:
        j.result = j.transfer.wait()


def ensure(jobs: list[Job]) -> float:
    total = 0.0
    for j in jobs:
        if j.result is None:
            j.result = j.transfer.wait()
        total += float(j.result.read().sum())
    return total


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    s.upload_staged(np.ones(N, dtype=np.float32), to=dev).wait()
    jobs = [Job(f"j{k}", s.download(dev, into=nx.pinned_array(N, np.float32))) for k in range(3)]
    collect(jobs)
    total = ensure(jobs)
    for j in jobs:
        if j.result is None:
            j.result = j.transfer.wait()
    assert total == 3.0 * N, total
    print(total)
    s.close()


if __name__ == "__main__":
    main()
