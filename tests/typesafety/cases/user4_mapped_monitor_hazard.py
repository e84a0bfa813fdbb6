# A progress monitor on mapped memory, as a class: start() maps a one-element counter
# for a kernel, the progress property peeks at it racily while it is mapped (and reads
# it normally once it is home), stop() ends the mapping. The counter's shape is logged
# while it is mapped (metadata touches no memory). The bug: the property was
# "simplified" to always read the counter, and is read while the kernel may write it.
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

N = 32


@cuda.jit
def work(data: Any, counter: Any) -> None:
    i = cuda.grid(1)
    if i < data.size:
        data[i] = i * 2
        cuda.atomic.add(counter, 0, 1)


class Monitor:
    def __init__(self, s: nx.Stream[nx.Lent]) -> None:
        self.s = s
        self.counter = nx.mapped_array(1, np.int32)
        with self.counter.write() as c:
            c[0] = 0
        self.mapping: nx.Mapping[np.int32] | None = None

    def start(self, data: nx.DeviceArray[nx.Owned, np.float32]) -> None:
        self.mapping = self.s.map(self.counter)
        print("monitoring a counter of shape", self.counter.shape)
        self.s.launch(work, 1, N, data, self.mapping.device)

    @property
    def progress(self) -> int:
        return int(self.counter.read()[0])

    def stop(self) -> None:
        if self.mapping is not None:
            self.counter = self.mapping.wait()
            self.mapping = None


def main() -> None:
    s = nx.stream()
    data = nx.device_array(N, np.float32)
    mon = Monitor(s)
    mon.start(data)
    print("progress while running:", mon.progress)  # E: use-after-transfer "counter"
    mon.stop()
    assert mon.progress == N, mon.progress
    s.close()


main()
