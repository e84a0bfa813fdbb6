# RUN: ok
"""Producer/consumer: a producer enqueues downloads, a consumer thread collects them."""
from __future__ import annotations

import queue
import threading
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def fill_value(a: Any, v: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = v


@dataclass
class Pending:
    tag: int
    transfer: nx.Transfer[Host]


class Collector(threading.Thread):
    def __init__(self, inbox: queue.Queue[Pending | None]) -> None:
        super().__init__(name="collector")
        self.inbox = inbox
        self.sums: dict[int, float] = {}
        self.buffers: list[Host] = []

    def run(self) -> None:
        while True:
            item = self.inbox.get()
            if item is None:
                break
            host = item.transfer.wait()
            self.sums[item.tag] = float(host.read().sum())
            self.buffers.append(host)


def produce(n: int, jobs: int, inbox: queue.Queue[Pending | None], s: nx.Stream[nx.Lent]) -> None:
    dev = nx.device_array(n, np.float32)
    try:
        for tag in range(jobs):
            s.launch(fill_value, 1, 64, dev, float(tag))
            out = nx.pinned_array(n, np.float32)
            inbox.put(Pending(tag, s.download(dev, into=out)))
    finally:
        inbox.put(None)  # always release the collector


def main() -> None:
    n, jobs = 64, 5
    s = nx.stream()
    inbox: queue.Queue[Pending | None] = queue.Queue()
    collector = Collector(inbox)
    collector.start()
    with s.lend() as ls:
        produce(n, jobs, inbox, ls)
    collector.join()
    s.close()
    assert collector.sums == {t: float(t * n) for t in range(jobs)}, collector.sums
    for buf in collector.buffers:
        buf.free()
    print(f"collected {len(collector.sums)} results")


if __name__ == "__main__":
    main()
