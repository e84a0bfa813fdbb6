# RUN: ok
"""A long-running simulation job with a progress monitor in zero-copy mapped memory.

The job's kernel walks its work items in passes and bumps a per-block counter in a
mapped array. `ProgressMonitor.peek()` polls the live counters while the job runs (a
deliberately racy read, through the mapping); `stop()` waits for the job and hands the
counters back for the final report.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Mapped = nx.MappedArray[nx.Owned, np.int32]


@cuda.jit
def work_pass(data: Any, counters: Any) -> None:
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    for k in range(i, data.size, stride):
        data[k] = data[k] * 0.5 + 1.0
    if cuda.threadIdx.x == 0:
        counters[cuda.blockIdx.x] += 1


class ProgressMonitor:
    def __init__(self, blocks: int, passes: int) -> None:
        self.blocks = blocks
        self.passes = passes
        self.counters: Mapped = nx.mapped_array(blocks, np.int32)
        with self.counters.write() as c:
            c[:] = 0
        self.mapping: nx.Mapping[np.int32] | None = None
        self.samples: list[int] = []

    def start(self, s: nx.Stream[nx.Lent]) -> nx.DeviceArray[nx.Owned, np.int32]:
        self.mapping = s.map(self.counters)
        return self.mapping.device

    def peek(self) -> float:
        assert self.mapping is not None
        done = int(self.mapping.racy_peek().sum())
        self.samples.append(done)
        return done / (self.blocks * self.passes)

    def stop(self) -> int:
        assert self.mapping is not None
        self.counters = self.mapping.wait()
        self.mapping = None
        return int(self.counters.read().sum())


class SimulationJob:
    def __init__(self, n: int, blocks: int) -> None:
        self.stream = nx.stream()
        self.data = nx.device_array(n, np.float32)
        self.blocks = blocks
        self.host = nx.pinned_copy(np.zeros(n, dtype=np.float32))
        self.host = self.stream.upload(self.host, to=self.data).wait()

    def run(self, monitor: ProgressMonitor) -> list[float]:
        counters = monitor.start(self.stream)
        progress: list[float] = []
        for _ in range(monitor.passes):
            self.stream.launch(work_pass, self.blocks, 32, self.data, counters)
            progress.append(monitor.peek())
        return progress

    def result(self) -> float:
        self.host = self.stream.download(self.data, into=self.host).wait()
        return float(self.host.read().mean(dtype=np.float64))

    def close(self) -> None:
        self.stream.close()


def main() -> None:
    blocks, passes = 4, 3
    job = SimulationJob(512, blocks)
    monitor = ProgressMonitor(blocks, passes)
    progress = job.run(monitor)
    total = monitor.stop()
    value = job.result()
    job.close()
    assert total == blocks * passes, total
    assert all(0.0 <= p <= 1.0 for p in progress)
    assert abs(value - 1.75) < 1e-6, value  # 0 -> 1 -> 1.5 -> 1.75
    print("progress_monitor: ok", progress, total, value)


if __name__ == "__main__":
    main()
