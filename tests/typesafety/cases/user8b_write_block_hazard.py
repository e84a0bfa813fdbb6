# RUN: raises BorrowError
# Planted bug: the upload is started while the write() view of the staging buffer is still open.
"""Telemetry packer: fills a staging buffer in a write() block, ships it, reuses it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

HostF = nx.PinnedArray[nx.Owned, np.float64]
DevF = nx.DeviceArray[nx.Owned, np.float64]


@cuda.jit
def prefix_scale(a: Any, dt: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = a[i] * dt


@dataclass
class Packer:
    n: int
    stream: nx.Stream[nx.Owned] = field(default_factory=nx.stream)
    sent: int = 0

    def __post_init__(self) -> None:
        self.dev: DevF = nx.device_array(self.n, np.float64)
        self.staging: HostF = nx.pinned_array(self.n, np.float64)

    def ship(self, samples: NDArray[np.float64], dt: float) -> float:
        staging = self.staging
        with staging.write() as v:
            v[:] = 0.0
            v[: samples.size] = samples
            up = self.stream.upload(staging, to=self.dev)  # E: owner-borrowed
        self.stream.launch(prefix_scale, 1, 64, self.dev, dt)
        staging = up.wait()
        staging = self.stream.download(self.dev, into=staging).wait()
        self.staging = staging
        self.sent += 1
        with staging.lend() as view:
            return float(view.read().sum())

    def close(self) -> None:
        self.staging.free()
        self.dev.free()
        self.stream.close()


def main(n: int = 48) -> list[float]:
    packer = Packer(n)
    totals: list[float] = []
    for k, count in enumerate([10, 48, 5]):
        samples = np.full(count, float(k + 1))
        totals.append(packer.ship(samples, 0.25))
    packer.close()
    assert totals == [2.5, 24.0, 3.75] and packer.sent == 3, totals
    return totals


if __name__ == "__main__":
    main()
