# RUN: ok
"""Batch uploader that survives its stream being shut down by a watchdog."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

HostF = nx.PinnedArray[nx.Owned, np.float32]
DevF = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def accumulate(acc: Any, batch: Any) -> None:
    for i in range(cuda.grid(1), acc.size, cuda.gridsize(1)):
        acc[i] += batch[i]


class Uploader:
    def __init__(self) -> None:
        self.stream: nx.Stream[nx.Owned] = nx.stream()
        self.restarts = 0

    def watchdog_trip(self) -> None:
        """Another component decided the stream is stale and closed it."""
        self.stream.close()

    def send(self, host: nx.Consumed[HostF], dev: DevF, attempts: int = 3) -> nx.Transfer[HostF]:
        last: Exception | None = None
        for _ in range(attempts):
            try:
                return self.stream.upload(host, to=dev)
            except nx.StreamClosedError as exc:  # refused before anything moved
                last = exc
                self.stream = nx.stream()
                self.restarts += 1
        raise RuntimeError("upload kept failing") from last


def main(batches: int = 5, n: int = 256) -> float:
    up = Uploader()
    host = nx.pinned_array(n, np.float32)
    staging = nx.device_array(n, np.float32)
    acc = nx.device_array(n, np.float32)
    with host.write() as v:
        v[:] = 0.0
    host = up.send(host, acc).wait()
    i = 0
    while i < batches:
        if i == 2:
            up.watchdog_trip()
        with host.write() as v:
            v[:] = float(i + 1)
        transfer = up.send(host, staging)
        up.stream.launch(accumulate, 1, 64, acc, staging)
        host = transfer.wait()
        i += 1
    out = up.stream.download(acc, into=host).wait()
    total = float(out.read().sum(dtype=np.float64))
    assert total == n * sum(range(1, batches + 1)), total
    assert up.restarts == 1
    up.stream.close()
    return total


if __name__ == "__main__":
    main()
