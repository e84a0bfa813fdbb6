# A job runner: jobs are dataclasses naming a source array and a result array, each
# run through an nx.Pipeline (chunks on a ring of streams); results are checked after
# the run's wait() hands both arrays back. The bug: a progress log peeks at the
# result array while the run still owns it.
# RUN: raises UseAfterTransferError
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def affine(src: Any, dst: Any) -> None:
    i = cuda.grid(1)
    if i < src.size:
        dst[i] = 2.0 * src[i] + 1.0


def step(s: nx.Stream[nx.Lent], chunk_in: Dev, chunk_out: Dev) -> None:
    s.launch(affine, 1, chunk_in.size, chunk_in, chunk_out)


@dataclass
class Job:
    name: str
    size: int


def run_job(pipe: nx.Pipeline[np.float32], job: Job) -> float:
    src = nx.pinned_copy(np.arange(job.size, dtype=np.float32))
    dst = nx.pinned_array(job.size, np.float32)
    run = pipe.map(src, into=dst, step=step)
    print(job.name, "first result so far:", dst.read()[0])  # E: use-after-transfer "dst" "run.wait()"
    src, dst = run.wait()
    ok = np.array_equal(dst.read(), 2.0 * src.read() + 1.0)
    assert ok, job.name
    return float(dst.read()[-1])


def main() -> None:
    pipe = nx.Pipeline(16, np.float32, slots=2)
    jobs = [Job("small", 20), Job("exact", 32), Job("ragged", 41)]
    lasts = {job.name: run_job(pipe, job) for job in jobs}
    assert lasts == {"small": 39.0, "exact": 63.0, "ragged": 81.0}, lasts
    print(lasts)
    pipe.close()


main()
