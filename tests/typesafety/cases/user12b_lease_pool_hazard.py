# RUN: raises BorrowError via-call
# XFAIL: miss (line 90): a job keeps the lent stream of its pool.lease() bundle and finish() uses it after the lease block ended; a lent handle kept inside a bundle object returned by a context manager is not followed
# Planted bug: main() calls job.finish() after the pool.lease() block has ended, so finish() downloads on the lent stream the job kept from its expired lease.
"""A resource pool leasing (stream, device scratch, calibration table) bundles to jobs
through a context manager; a job begins its work on the lease and finishes it before the
lease is returned."""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterator

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def calibrate(a: Any, gain: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = a[i] * gain - 1.0


@dataclass
class Lease:
    dev: Dev
    stream: nx.Stream[nx.Lent]
    table: nx.PinnedArray[nx.Lent, np.float32]


class ResourcePool:
    def __init__(self, size: int, n: int) -> None:
        self.devs = [nx.device_array(n, np.float32) for _ in range(size)]
        self.streams = [nx.stream() for _ in range(size)]
        self.table = nx.pinned_copy(np.array([2.0, 0.5], dtype=np.float32))
        self.leases = 0

    @contextmanager
    def lease(self) -> Iterator[Lease]:
        dev, s = self.devs.pop(), self.streams.pop()
        self.leases += 1
        try:
            with s.lend() as ls, self.table.lend() as tv:
                yield Lease(dev, ls, tv)
        finally:
            self.devs.append(dev)
            self.streams.append(s)

    def close(self) -> None:
        for s in self.streams:
            s.close()
        self.table.free()


class Job:
    def __init__(self, name: str, values: NDArray[np.float32]) -> None:
        self.name = name
        self.host: Host = nx.pinned_copy(values)
        self.lease: Lease | None = None

    def begin(self, lease: Lease) -> None:
        self.lease = lease
        gain = float(lease.table.read()[0])
        self.host = lease.stream.upload(self.host, to=lease.dev).wait()
        lease.stream.launch(calibrate, 2, 64, lease.dev, gain)

    def finish(self) -> float:
        assert self.lease is not None
        self.host = self.lease.stream.download(self.lease.dev, into=self.host).wait()
        self.lease = None
        total = float(self.host.read().sum(dtype=np.float64))
        self.host.free()
        return total


def main() -> None:
    n = 256
    pool = ResourcePool(size=2, n=n)
    jobs = [Job(f"j{i}", np.full(n, float(i), dtype=np.float32)) for i in range(4)]
    totals: list[float] = []
    for job in jobs:
        with pool.lease() as lease:
            job.begin(lease)
        totals.append(job.finish())  # E: lend-escape
    pool.close()
    assert totals == [float((2 * i - 1) * n) for i in range(4)]
    assert pool.leases == 4
    print("totals", totals)


if __name__ == "__main__":
    main()
