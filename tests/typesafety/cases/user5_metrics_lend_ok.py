# A metrics collector for a training loop: each step the parameters' device array is lent
# to the collector, which enqueues a norm reduction on it into the collector's own
# accumulator; report() downloads the accumulated norms. The collector keeps no lent
# handle: what it keeps is its own device array.
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]
LentDev = nx.DeviceArray[nx.Lent, np.float32]


@nx.kernel(reads=["p"], writes=["acc"])
@cuda.jit
def sq_norm(p: Any, acc: Any, slot: int) -> None:
    for i in range(cuda.grid(1), p.size, cuda.gridsize(1)):
        cuda.atomic.add(acc, slot, p[i] * p[i])


@cuda.jit
def sgd_step(p: Any, lr: float) -> None:
    for i in range(cuda.grid(1), p.size, cuda.gridsize(1)):
        p[i] -= lr * p[i]


class Metrics:
    def __init__(self, s: nx.Stream[nx.Lent], steps: int) -> None:
        self.s = s
        self.acc = nx.device_array(steps, np.float32)
        s.upload_staged(np.zeros(steps, np.float32), to=self.acc)
        self.step = 0

    def observe(self, params: LentDev) -> None:
        sq_norm[1, 32, self.s](params, self.acc, self.step)
        self.step += 1

    def report(self) -> list[float]:
        host = nx.pinned_array(self.acc.size, np.float32)
        host = self.s.download(self.acc, into=host).wait()
        return [float(v) for v in host.read()[: self.step]]


def train(steps: int = 4) -> list[float]:
    s = nx.stream()
    params = nx.device_array(32, np.float32)
    s.upload_staged(np.ones(32, np.float32), to=params)
    metrics = Metrics(s, steps)
    for _ in range(steps):
        s.launch(sgd_step, 1, 32, params, 0.5)
        with params.lend() as view:
            metrics.observe(view)
    norms = metrics.report()
    s.close()
    return norms


if __name__ == "__main__":
    assert train() == [32 * 0.25**k for k in range(1, 5)], train()
    print("metrics ok")
