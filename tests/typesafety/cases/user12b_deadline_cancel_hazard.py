# Runtime: warns ResourceWarning anywhere
# XFAIL: miss (line 67): collect() deletes a job past its deadline from self.jobs with its download pending; a del of a container element that holds a pending transfer set by another method is not reported
# Planted bug: collect() cancels a job past its deadline by deleting it from the jobs dict, dropping its pending download instead of completing it through _retire().
"""A job runner with deadlines: each job uploads, runs and downloads on its own stream;
collect() harvests jobs whose results are in and cancels those past their deadline. A
DMA cannot be cancelled, so a cancelled job's transfers are still completed and its
buffers recycled, only its result is discarded."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def polynomial(a: Any) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        x = a[i]
        a[i] = x * x + 2.0 * x + 1.0


@dataclass
class RunningJob:
    name: str
    deadline: float
    stream: nx.Stream[nx.Owned]
    dev: nx.DeviceArray[nx.Owned, np.float32]
    result: nx.Transfer[Host]


class DeadlineRunner:
    def __init__(self, n: int, clock: Callable[[], float]) -> None:
        self.n, self.clock = n, clock
        self.jobs: dict[str, RunningJob] = {}
        self.spare: list[Host] = []
        self.done: dict[str, float] = {}
        self.cancelled: list[str] = []

    def start(self, name: str, value: float, budget: float) -> None:
        s = nx.stream()
        dev = nx.device_array(self.n, np.float32)
        host = nx.pinned_copy(np.full(self.n, value, dtype=np.float32))
        host = s.upload(host, to=dev).wait()
        s.launch(polynomial, 2, 64, dev)
        down = s.download(dev, into=host)
        self.jobs[name] = RunningJob(name, self.clock() + budget, s, dev, down)

    def _retire(self, job: RunningJob) -> Host:
        out = job.result.wait()
        job.dev.free()
        job.stream.close()
        return out

    def collect(self) -> None:
        now = self.clock()
        for name in list(self.jobs):
            job = self.jobs[name]
            if job.deadline < now:
                self.cancelled.append(name)
                del self.jobs[name]  # E: unfinished-transfer
            elif job.result.done():
                out = self._retire(self.jobs.pop(name))
                self.done[name] = float(out.read()[0])
                self.spare.append(out)

    def close(self) -> None:
        self.collect()
        for buf in self.spare:
            buf.free()


def main() -> None:
    now = [0.0]
    runner = DeadlineRunner(256, clock=lambda: now[0])
    runner.start("fast", 1.0, budget=5.0)
    runner.start("slow", 2.0, budget=1.0)
    runner.start("ok", 3.0, budget=5.0)
    now[0] = 2.0
    runner.collect()
    runner.close()
    assert runner.cancelled == ["slow"]
    assert runner.done == {"fast": 4.0, "ok": 16.0}
    assert not runner.jobs
    print("done", runner.done, "cancelled", runner.cancelled, "recycled", len(runner.spare))


if __name__ == "__main__":
    main()
