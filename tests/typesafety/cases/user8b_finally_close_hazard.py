# RUN: raises StreamClosedError
# Planted bug: the rejection path only logs; the early upload is never completed, so closing the stream in finally is refused.
"""Job runner: per-job stream, validation that can reject a job mid-flight, cleanup in finally."""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

log = logging.getLogger("jobs")
HostF = nx.PinnedArray[nx.Owned, np.float32]


class JobRejected(Exception):
    pass


@dataclass
class Job:
    name: str
    data: NDArray[np.float32]


@cuda.jit
def negate(a: Any) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = -a[i]


def validate(job: Job) -> None:
    if not np.all(np.isfinite(job.data)):
        raise JobRejected(f"{job.name}: non-finite input")


def run_job(job: Job) -> float | None:
    s = nx.stream()
    dev = nx.device_array(job.data.size, np.float32)
    up: nx.Transfer[HostF] | None = None
    try:
        host = nx.pinned_copy(job.data)
        up = s.upload(host, to=dev)   # start the copy early, validate while it runs  # E: unfinished-transfer
        validate(job)
        host = up.wait()
        s.launch(negate, 1, 64, dev)
        host = s.download(dev, into=host).wait()
        return float(host.read().sum(dtype=np.float64))
    except JobRejected as exc:
        log.warning("rejected: %s", exc)
        return None
    finally:
        dev.free()
        s.close()  # E: unfinished-transfer


def main() -> list[float | None]:
    jobs = [
        Job("a", np.ones(64, np.float32)),
        Job("b", np.array([1.0, np.nan] * 32, np.float32)),
        Job("c", np.arange(64, dtype=np.float32)),
    ]
    results = [run_job(j) for j in jobs]
    assert results == [-64.0, None, -float(sum(range(64)))], results
    return results


if __name__ == "__main__":
    main()
