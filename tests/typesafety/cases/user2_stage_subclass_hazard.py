# A class hierarchy: the base class owns a stream and drives rounds through overridable
# hooks (prepare/submit/collect); a subclass owns the buffers; a verbose subclass
# overrides submit() to log. BUG: the log after super().submit() reads self.host, which
# Scaler.submit() moved into the upload (its download is in self.pending).
# RUN: raises UseAfterTransferError
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def scale(a: Any, k: float) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= k


class GpuStage:
    """Owns a stream; subclasses enqueue work on it."""

    def __init__(self) -> None:
        self.s = nx.stream()

    def prepare(self, r: int) -> None:
        pass

    def submit(self) -> None:
        raise NotImplementedError

    def collect(self) -> float:
        raise NotImplementedError

    def run(self, rounds: int) -> list[float]:
        results = []
        for r in range(rounds):
            self.prepare(r)
            self.submit()
            results.append(self.collect())
        return results

    def close(self) -> None:
        self.s.close()


class Scaler(GpuStage):
    def __init__(self, n: int, k: float) -> None:
        super().__init__()
        self.k = k
        self.host = nx.pinned_array(n, np.float32)
        self.dev = nx.device_array(n, np.float32)
        self.pending: nx.Transfer[Host] | None = None

    def prepare(self, r: int) -> None:
        with self.host.write() as a:
            a[:] = float(r)

    def submit(self) -> None:
        up = self.s.upload(self.host, to=self.dev)
        self.s.launch(scale, 1, self.dev.size, self.dev, self.k)
        self.pending = self.s.download(self.dev, into=up)

    def collect(self) -> float:
        assert self.pending is not None
        self.host = self.pending.wait()
        self.pending = None
        return float(self.host.read().sum())


class VerboseScaler(Scaler):
    def submit(self) -> None:
        super().submit()
        print("submitted", self.host.read()[:2])  # E: use-after-transfer "self.host" "Scaler.submit()"


def main() -> None:
    stage = VerboseScaler(8, 3.0)
    totals = stage.run(3)
    stage.close()
    assert totals == [3.0 * r * 8 for r in range(3)], totals


main()
