# A priority scheduler of pending downloads: results are enqueued with a priority and
# completed lowest-priority-number first from a heap; transfers that are already done
# are taken without blocking.
# RUN: ok
from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def fill(a: Any, value: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = value


@dataclass(order=True)
class Pending:
    priority: int
    seq: int
    name: str = field(compare=False)
    transfer: nx.Transfer[Host] = field(compare=False)


class Scheduler:
    def __init__(self, s: nx.Stream[nx.Owned]) -> None:
        self.s = s
        self.heap: list[Pending] = []
        self.counter = itertools.count()

    def submit(self, name: str, priority: int, dev: Dev, into: nx.Consumed[Host]) -> None:
        down = self.s.download(dev, into=into)
        heapq.heappush(self.heap, Pending(priority, next(self.counter), name, down))

    def drain(self) -> dict[str, Host]:
        results: dict[str, Host] = {}
        while self.heap:
            p = heapq.heappop(self.heap)
            if p.transfer.done():
                results[p.name] = p.transfer.wait()  # completes at once
            else:
                results[p.name] = p.transfer.wait()  # blocks on this download's event
        return results


def main(n: int = 32) -> None:
    s = nx.stream()
    sched = Scheduler(s)
    devs = {name: nx.device_array(n, np.float32) for name in ("loss", "grad", "acts")}
    for prio, (name, dev) in enumerate(devs.items()):
        s.launch(fill, 1, 32, dev, float(prio + 1))
        sched.submit(name, prio, dev, nx.pinned_array(n, np.float32))
    results = sched.drain()
    s.close()
    assert [float(results[k].read()[0]) for k in devs] == [1.0, 2.0, 3.0]


if __name__ == "__main__":
    main()
