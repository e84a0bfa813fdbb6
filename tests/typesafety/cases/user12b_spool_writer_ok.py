# RUN: ok
"""A spooling writer: records are appended into a device spool by a kernel; flush()
downloads the spool into a pinned buffer and commits it to a sink that may refuse (disk
full), in which case the records stay spooled and the flush is retried."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class SinkFull(OSError):
    pass


@cuda.jit
def append(spool: Any, slot: int, value: float) -> None:
    i = cuda.grid(1)
    if i == 0:
        spool[slot] = value


class Sink:
    def __init__(self, refuse: int) -> None:
        self.refuse = refuse
        self.committed: list[float] = []

    def commit(self, data: np.ndarray[Any, np.dtype[np.float32]]) -> float:
        if self.refuse > 0:
            self.refuse -= 1
            raise SinkFull("sink is full")
        total = float(data.sum(dtype=np.float64))
        self.committed.append(total)
        return total


class SpoolWriter:
    def __init__(self, capacity: int, sink: Sink) -> None:
        self.stream = nx.stream()
        self.dev = nx.device_array(capacity, np.float32)
        self.spool: Host = nx.pinned_array(capacity, np.float32)
        self.capacity, self.used, self.sink = capacity, 0, sink
        self.failures = 0

    def write(self, value: float) -> None:
        while self.used == self.capacity:
            self.flush()
        self.stream.launch(append, 1, 1, self.dev, self.used, value)
        self.used += 1

    def flush(self) -> float:
        down = self.stream.download(self.dev, into=self.spool)
        try:
            self.spool = down.wait()
            total = self.sink.commit(self.spool.read()[: self.used])
            self.used = 0
            return total
        except SinkFull:
            self.failures += 1
            return 0.0
        finally:
            if not down.completed:
                self.spool = down.wait()

    def close(self) -> None:
        while self.used:
            self.flush()
        self.spool.free()
        self.stream.close()


def main() -> None:
    writer = SpoolWriter(capacity=4, sink=Sink(refuse=1))
    for k in range(1, 11):
        writer.write(float(k))
    writer.close()
    assert writer.failures == 1
    assert sum(writer.sink.committed) == 55.0
    print("committed", writer.sink.committed, "failures", writer.failures)


if __name__ == "__main__":
    main()
