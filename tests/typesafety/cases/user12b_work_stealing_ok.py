# RUN: ok
"""A work-stealing thread pool: tasks are pushed onto per-worker deques, and run() starts
worker threads that pop their own deque and steal from the others; here the tasks compute
per-chunk statistics over a lent read-only view of a downloaded result."""

from __future__ import annotations

import functools
import threading
from collections import deque
from typing import Any, Callable

import numpy as np
from numba import cuda

import numbaxfer as nx

View = nx.PinnedArray[nx.Lent, np.float32]
Task = Callable[[], tuple[int, float]]


@cuda.jit
def waves(a: Any) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = (i % 16) * 1.0


class StealingPool:
    def __init__(self, workers: int) -> None:
        self.deques: list[deque[Task]] = [deque() for _ in range(workers)]
        self.lock = threading.Lock()
        self.results: dict[int, float] = {}
        self.errors: list[BaseException] = []
        self._next = 0

    def submit(self, task: Task) -> None:
        self.deques[self._next % len(self.deques)].append(task)
        self._next += 1

    def _take(self, me: int) -> Task | None:
        with self.lock:
            if self.deques[me]:
                return self.deques[me].pop()
            for other in self.deques:
                if other:
                    return other.popleft()
        return None

    def _worker(self, me: int) -> None:
        while (task := self._take(me)) is not None:
            try:
                key, value = task()
            except BaseException as exc:
                self.errors.append(exc)
                return
            with self.lock:
                self.results[key] = value

    def run(self) -> dict[int, float]:
        threads = [threading.Thread(target=self._worker, args=(i,)) for i in range(len(self.deques))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if self.errors:
            raise self.errors[0]
        return dict(sorted(self.results.items()))


def chunk_mean(view: View, index: int, size: int) -> tuple[int, float]:
    part = view.read()[index * size:(index + 1) * size]
    return index, float(part.mean(dtype=np.float64))


def main() -> None:
    n, chunks = 512, 8
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    s.launch(waves, 2, 64, dev)
    host = s.download(dev, into=nx.pinned_array(n, np.float32)).wait()
    pool = StealingPool(workers=3)
    with host.lend() as view:
        for k in range(chunks):
            pool.submit(functools.partial(chunk_mean, view, k, n // chunks))
        means = pool.run()
    host.free()
    s.close()
    assert means == {k: 7.5 for k in range(chunks)}
    print("means", means)


if __name__ == "__main__":
    main()
