# RUN: ok
"""A module-level telemetry uploader singleton: library code calls push_metrics() from
anywhere; the singleton owns one stream, one staging buffer and a device accumulator."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float64]
Dev = nx.DeviceArray[nx.Owned, np.float64]
WIDTH = 8


@cuda.jit
def fold(src: Any, acc: Any) -> None:
    i = cuda.grid(1)
    if i < src.size:
        acc[i] += src[i]


class TelemetryUploader:
    def __init__(self) -> None:
        self.stream = nx.stream()
        self.staging: Host = nx.pinned_array(WIDTH, np.float64)
        self.dev: Dev = nx.device_array(WIDTH, np.float64)
        self.acc: Dev = nx.device_array(WIDTH, np.float64)
        self.stream.upload_staged(np.zeros(WIDTH), to=self.acc)
        self.accepted = 0
        self.dropped = 0

    def push(self, values: NDArray[np.float64]) -> bool:
        if not np.isfinite(values).all():
            self.dropped += 1
            return False
        with self.staging.write() as a:
            a[:] = values
        up = self.stream.upload(self.staging, to=self.dev)
        self.stream.launch(fold, 1, WIDTH, self.dev, self.acc)
        self.staging = up.wait()
        self.accepted += 1
        return True

    def totals(self) -> NDArray[np.float64]:
        self.staging = self.stream.download(self.acc, into=self.staging).wait()
        return self.staging.read().copy()


_UPLOADER: TelemetryUploader | None = None


def uploader() -> TelemetryUploader:
    global _UPLOADER
    if _UPLOADER is None:
        _UPLOADER = TelemetryUploader()
    return _UPLOADER


def push_metrics(values: list[float]) -> bool:
    return uploader().push(np.asarray(values, dtype=np.float64))


def main() -> None:
    for step in range(5):
        push_metrics([float(step)] * WIDTH)
    totals = uploader().totals()
    assert float(totals[0]) == 10.0, totals
    print("singleton: accepted", uploader().accepted, "dropped", uploader().dropped)


if __name__ == "__main__":
    main()
