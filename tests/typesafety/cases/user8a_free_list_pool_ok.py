# RUN: ok
"""A hand-written staging pool: a free list of pinned buffers plus a FIFO of uploads still
reading theirs. A buffer goes back on the free list only through its transfer's wait()."""
from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.int32]
Dev = nx.DeviceArray[nx.Owned, np.int32]


@cuda.jit
def accumulate(src: Any, acc: Any) -> None:
    i = cuda.grid(1)
    if i < src.size:
        acc[i] += src[i]


class StagingPool:
    def __init__(self, n: int, initial: int = 2) -> None:
        self.n = n
        self.free: list[Host] = [nx.pinned_array(n, np.int32) for _ in range(initial)]
        self.busy: deque[nx.Transfer[Host]] = deque()
        self.allocated = initial

    def acquire(self) -> Host:
        if self.free:
            return self.free.pop()
        if self.busy:
            return self.busy.popleft().wait()
        self.allocated += 1
        return nx.pinned_array(self.n, np.int32)

    def release_after(self, transfer: nx.Transfer[Host]) -> None:
        self.busy.append(transfer)

    def drain(self) -> None:
        while self.busy:
            self.free.append(self.busy.popleft().wait())


class Accumulator:
    def __init__(self, n: int) -> None:
        self.stream = nx.stream()
        self.pool = StagingPool(n)
        self.dev: Dev = nx.device_array(n, np.int32)
        self.acc: Dev = nx.device_array(n, np.int32)
        self.stream.upload_staged(np.zeros(n, np.int32), to=self.acc)

    def feed(self, chunk: NDArray[np.int32]) -> None:
        buf = self.pool.acquire()
        with buf.write() as a:
            a[:] = chunk
        self.pool.release_after(self.stream.upload(buf, to=self.dev))
        self.stream.launch(accumulate, 1, chunk.size, self.dev, self.acc)

    def result(self) -> NDArray[np.int32]:
        self.pool.drain()
        out = self.pool.acquire()
        out = self.stream.download(self.acc, into=out).wait()
        values = out.read().copy()
        self.pool.free.append(out)
        return values

    def close(self) -> None:
        self.stream.close()


def main() -> None:
    n = 32
    acc = Accumulator(n)
    for i in range(6):
        acc.feed(np.full(n, i, dtype=np.int32))
    total = acc.result()
    acc.close()
    assert int(total[0]) == 15, total[0]
    print("free-list pool: buffers allocated", acc.pool.allocated)


if __name__ == "__main__":
    main()
