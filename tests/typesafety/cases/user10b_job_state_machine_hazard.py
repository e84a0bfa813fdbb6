# RUN: raises UseAfterTransferError
# XFAIL: miss (line 92): the DOWNLOADING phase of tick() waits job.transfer without clearing it, and finalize() waits it again; which phase completed which transfer is the object's own protocol (job.state), not followed
# Planted bug: the DOWNLOADING branch completes the job's transfer itself but leaves job.transfer set, so finalize() completes it a second time.
"""Job state machine: QUEUED -> UPLOADING -> RUNNING -> DOWNLOADING -> DONE.

Each Job dataclass carries its state, its pinned buffer (when home) and its in-flight
transfer (when not). ``Scheduler.tick`` advances every job by one state, polling
transfers with ``done()`` and completing them exactly once when they are.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def double(a: Any) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] = 2.0 * a[i]


class State(enum.Enum):
    QUEUED = "queued"
    UPLOADING = "uploading"
    RUNNING = "running"
    DOWNLOADING = "downloading"
    DONE = "done"


@dataclass
class Job:
    jid: int
    dev: Dev
    buf: Host | None
    transfer: nx.Transfer[Host] | None = None
    state: State = State.QUEUED
    result: float | None = None


class Scheduler:
    def __init__(self, width: int) -> None:
        self.width = width
        self.stream = nx.stream()
        self.jobs: list[Job] = []

    def add(self, jid: int) -> None:
        buf = nx.pinned_copy(np.full(self.width, float(jid), dtype=np.float32))
        self.jobs.append(Job(jid, nx.device_array(self.width, np.float32), buf))

    def _complete(self, job: Job) -> Host:
        assert job.transfer is not None
        buf = job.transfer.wait()
        job.transfer = None
        return buf

    def tick(self) -> None:
        for job in self.jobs:
            if job.state is State.QUEUED:
                assert job.buf is not None
                job.transfer = self.stream.upload(job.buf, to=job.dev)
                job.buf = None
                job.state = State.UPLOADING
            elif job.state is State.UPLOADING:
                job.buf = self._complete(job)
                self.stream.launch(double, (self.width + 63) // 64, 64, job.dev)
                job.state = State.RUNNING
            elif job.state is State.RUNNING:
                assert job.buf is not None
                job.transfer = self.stream.download(job.dev, into=job.buf)
                job.buf = None
                job.state = State.DOWNLOADING
            elif job.state is State.DOWNLOADING:
                if job.transfer is not None and job.transfer.done():
                    job.buf = job.transfer.wait()
                    job.result = float(job.buf.read().sum(dtype=np.float64))
                    job.state = State.DONE

    def finalize(self) -> None:
        for job in self.jobs:
            if job.transfer is not None:
                job.buf = job.transfer.wait()  # E: transfer-completed-twice
                job.transfer = None

    def all_done(self) -> bool:
        return all(j.state is State.DONE for j in self.jobs)


def main() -> None:
    width = 128
    sched = Scheduler(width)
    for jid in range(3):
        sched.add(jid)
    for _ in range(10):
        sched.tick()
        if sched.all_done():
            break
    sched.finalize()
    sched.stream.close()
    results = [j.result for j in sched.jobs]
    assert results == [2.0 * jid * width for jid in range(3)], results
    print("job_state_machine ok", results)


if __name__ == "__main__":
    main()
