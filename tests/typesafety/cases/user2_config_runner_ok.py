# A @dataclass config and a runner class whose methods call each other: run() stages the
# input, launches, fetches, then summarizes. Correct: _summarize() reads self.host only
# after _finish() took it back from the round trip.
# RUN: ok
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def offset(a: Any, b: float) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] += b


@dataclass(frozen=True)
class Config:
    n: int = 16
    bias: float = 0.5
    rounds: int = 3
    labels: tuple[str, ...] = field(default=("mean", "max"))


class Runner:
    def __init__(self, cfg: Config) -> None:
        self.cfg = cfg
        self.s = nx.stream()
        self.host = nx.pinned_array(cfg.n, np.float32)
        self.dev = nx.device_array(cfg.n, np.float32)
        self.inflight: nx.Transfer[Host] | None = None
        self.history: list[dict[str, float]] = []

    def _fill(self, r: int) -> None:
        with self.host.write() as a:
            a[:] = np.arange(self.cfg.n, dtype=np.float32) * r

    def _stage(self) -> None:
        up = self.s.upload(self.host, to=self.dev)
        self.s.launch(offset, 1, self.cfg.n, self.dev, self.cfg.bias)
        self.inflight = self.s.download(self.dev, into=up)

    def _finish(self) -> None:
        assert self.inflight is not None
        self.host = self.inflight.wait()
        self.inflight = None

    def _summarize(self) -> dict[str, float]:
        v = self.host.read()
        return dict(zip(self.cfg.labels, (float(v.mean()), float(v.max()))))

    def run(self) -> list[dict[str, float]]:
        for r in range(self.cfg.rounds):
            self._fill(r)
            self._stage()
            self._finish()
            self.history.append(self._summarize())
        return self.history

    def close(self) -> None:
        self.s.close()


def main() -> None:
    runner = Runner(Config())
    hist = runner.run()
    runner.close()
    assert [h["max"] for h in hist] == [15.0 * r + 0.5 for r in range(3)], hist


main()
