# RUN: raises UseAfterTransferError via-call
# Planted bug: summary() calls job.transfer.wait() again to get at the buffer, after
# collect() had already completed every transfer (the developer treated wait() as a getter).
from __future__ import annotations
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def scale(a: Any, factor: float) -> None:
    """``a *= factor`` (grid-stride loop)."""
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] *= factor


@dataclass
class Job:
    name: str
    transfer: nx.Transfer[Host]
    result: Host | None = None


def launch_jobs(s: nx.Stream[nx.Lent], factors: dict[str, float], n: int) -> list[Job]:
    jobs: list[Job] = []
    for name, factor in factors.items():
        dev = nx.device_array(n, np.float32)
        s.upload_staged(np.ones(n, dtype=np.float32), to=dev).wait()
        s.launch(scale, 1, 64, dev, factor)
        jobs.append(Job(name, s.download(dev, into=nx.pinned_array(n, np.float32))))
    return jobs


def collect(jobs: list[Job]) -> None:
    for job in jobs:
        job.result = job.transfer.wait()


def summary(jobs: list[Job]) -> dict[str, float]:
    out: dict[str, float] = {}
    for job in jobs:
        buf = job.transfer.wait()
        out[job.name] = float(buf.read().sum())
    return out


def main(n: int = 64) -> dict[str, float]:
    s = nx.stream()
    jobs = launch_jobs(s, {"half": 0.5, "double": 2.0, "ten": 10.0}, n)
    collect(jobs)
    totals = summary(jobs)  # E: transfer-completed-twice
    s.close()
    assert totals == {"half": 0.5 * n, "double": 2.0 * n, "ten": 10.0 * n}, totals
    return totals


if __name__ == "__main__":
    main()
