# RUN: raises UseAfterTransferError
# Planted bug: the checksum is taken from job.buf after the upload has moved it (the lines were reordered).
"""A batch of upload jobs described by NamedTuples: each job names its staging buffer and
device target; the in-flight record keeps the transfer and a host-side checksum."""
from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float64]
Dev = nx.DeviceArray[nx.Owned, np.float64]


@cuda.jit
def negate(a: Any) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] = -a[i]


class Job(NamedTuple):
    tag: str
    buf: Host
    dev: Dev
    seed: int


class Inflight(NamedTuple):
    tag: str
    transfer: nx.Transfer[Host]
    dev: Dev
    checksum: float


def submit_all(s: nx.Stream[nx.Owned], jobs: list[Job]) -> list[Inflight]:
    inflight: list[Inflight] = []
    for job in jobs:
        rng = np.random.default_rng(job.seed)
        with job.buf.write() as a:
            a[:] = rng.standard_normal(a.size)
        up = s.upload(job.buf, to=job.dev)
        checksum = float(job.buf.read().sum())  # E: use-after-transfer
        s.launch(negate, 1, job.dev.size, job.dev)
        inflight.append(Inflight(job.tag, up, job.dev, checksum))
    return inflight


def collect(s: nx.Stream[nx.Owned], inflight: list[Inflight]) -> dict[str, float]:
    sums: dict[str, float] = {}
    for rec in inflight:
        host = rec.transfer.wait()
        host = s.download(rec.dev, into=host).wait()
        sums[rec.tag] = float(host.read().sum())
        assert abs(sums[rec.tag] + rec.checksum) < 1e-9, rec.tag
    return sums


def main() -> None:
    s = nx.stream()
    jobs = [
        Job(f"job{i}", nx.pinned_array(24, np.float64), nx.device_array(24, np.float64), i)
        for i in range(3)
    ]
    sums = collect(s, submit_all(s, jobs))
    s.close()
    print("namedtuple jobs:", {k: round(v, 3) for k, v in sums.items()})


if __name__ == "__main__":
    main()
