# A multi-stage pipeline built from a list of Stage objects; each stage's process(buf)
# takes the host buffer and returns the transfer that gives it back.
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 64


@cuda.jit
def scale(a: Any, factor: float) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= factor


class Stage:
    """Upload, scale on the device, download into the same buffer (chained)."""

    def __init__(self, name: str, factor: float) -> None:
        self.name = name
        self.factor = factor
        self.stream = nx.stream()
        self.dev: Dev = nx.device_array(N, np.float32)

    def process(self, buf: nx.Consumed[Host]) -> nx.Transfer[Host]:
        up = self.stream.upload(buf, to=self.dev)
        self.stream.launch(scale, 1, N, self.dev, self.factor)
        return self.stream.download(self.dev, into=up)

    def close(self) -> None:
        self.dev.free()
        self.stream.close()


def run_stages(stages: list[Stage], buf: Host) -> Host:
    for stage in stages:
        t = stage.process(buf)
        buf = t.wait()
        print(f"{stage.name}: first={buf.read()[0]:.1f}")
    return buf


def main() -> None:
    stages = [Stage("double", 2.0), Stage("triple", 3.0), Stage("half", 0.5)]
    buf = nx.pinned_copy(np.ones(N, np.float32))
    buf = run_stages(stages, buf)
    assert np.allclose(buf.read(), 3.0)
    for stage in stages:
        stage.close()


main()
