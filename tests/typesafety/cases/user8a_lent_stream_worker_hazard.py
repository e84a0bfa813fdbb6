# RUN: raises BorrowError via-call
# Planted bug: run_all() only attaches the lent stream inside the lend block and runs the workers after it ended; each worker then enqueues on an expired Stream[Lent].
"""A scheduler that owns its stream and lends it to short-lived workers: a worker may
enqueue on the lent stream while the scheduler's `with stream.lend()` block runs."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def scale(a: Any, factor: float) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= factor


class Worker:
    def __init__(self, name: str, n: int) -> None:
        self.name = name
        self.host: Host = nx.pinned_array(n, np.float32)
        self.dev: Dev = nx.device_array(n, np.float32)
        self.stream: nx.Stream[nx.Lent] | None = None
        self.result = 0.0

    def attach(self, ls: nx.Stream[nx.Lent]) -> None:
        self.stream = ls

    def run(self, factor: float) -> None:
        ls = self.stream
        assert ls is not None, f"{self.name} has no stream"
        with self.host.write() as a:
            a[:] = np.arange(a.size, dtype=np.float32)
        self.host = ls.upload(self.host, to=self.dev).wait()
        ls.launch(scale, 1, self.dev.size, self.dev, factor)
        self.host = ls.download(self.dev, into=self.host).wait()
        self.result = float(self.host.read().sum())

    def detach(self) -> None:
        self.stream = None


class Scheduler:
    def __init__(self) -> None:
        self.stream = nx.stream()
        self.workers: list[Worker] = []

    def add(self, w: Worker) -> None:
        self.workers.append(w)

    def run_all(self, factor: float) -> None:
        with self.stream.lend() as ls:
            for w in self.workers:
                w.attach(ls)
        for w in self.workers:
            w.run(factor)  # E: lend-escape
            w.detach()

    def close(self) -> None:
        self.stream.close()


def main() -> None:
    sched = Scheduler()
    for i in range(3):
        sched.add(Worker(f"w{i}", 8 * (i + 1)))
    sched.run_all(2.0)
    sched.close()
    for w in sched.workers:
        n = w.host.size
        assert w.result == float(n * (n - 1)), (w.name, w.result)
    print("lent stream:", [(w.name, w.result) for w in sched.workers])


if __name__ == "__main__":
    main()
