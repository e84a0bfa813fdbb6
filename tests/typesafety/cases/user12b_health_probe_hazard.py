# RUN: raises StreamClosedError
# XFAIL: miss (line 52): the close hook is registered before the final-probe hook, so shutdown() runs the probe on the closed stream; callbacks kept in a list and run later are not followed
# Planted bug: the close hook is registered before the final-probe hook, so shutdown() runs the final probe on a stream that close() has already closed.
"""A health-checked compute service: a canary vector is pushed through the device on
demand and compared with the expected answer; shutdown hooks (a final probe, then the
close) run in registration order."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def saxpy(y: Any, x: Any, alpha: float) -> None:
    for i in range(cuda.grid(1), y.size, cuda.gridsize(1)):
        y[i] = alpha * x[i] + y[i]


@dataclass
class ProbeResult:
    name: str
    healthy: bool
    error: float


@dataclass
class ComputeService:
    n: int
    stream: nx.Stream[nx.Owned] = field(default_factory=nx.stream)
    history: list[ProbeResult] = field(default_factory=list)
    hooks: list[Callable[[], None]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.x = nx.device_array(self.n, np.float32)
        self.y = nx.device_array(self.n, np.float32)
        self.canary: Host = nx.pinned_copy(np.linspace(0.0, 1.0, self.n, dtype=np.float32))

    def on_shutdown(self, hook: Callable[[], None]) -> None:
        self.hooks.append(hook)

    def probe(self, name: str, alpha: float) -> ProbeResult:
        expected = (alpha + 1.0) * self.canary.read().astype(np.float64)
        up = self.stream.upload(self.canary, to=self.x)  # E: use-after-transfer
        self.stream.copy(self.x, to=self.y)
        self.stream.launch(saxpy, 2, 64, self.y, self.x, alpha)
        self.canary = up.wait()
        out = self.stream.download(self.y, into=nx.pinned_array(self.n, np.float32)).wait()
        err = float(np.abs(out.read() - expected).max())
        out.free()
        result = ProbeResult(name, err < 1e-5, err)
        self.history.append(result)
        return result

    def close(self) -> None:
        self.x.free()
        self.stream.close()

    def shutdown(self) -> int:
        ran = 0
        for hook in self.hooks:
            hook()
            ran += 1
        return ran


def main() -> None:
    svc = ComputeService(256)
    svc.on_shutdown(svc.close)
    svc.on_shutdown(functools.partial(svc.probe, "final", 3.0))  # type: ignore[arg-type]
    first = svc.probe("startup", 1.0)
    second = svc.probe("periodic", 0.5)
    ran = svc.shutdown()
    svc.canary.free()
    assert first.healthy and second.healthy and ran == 2
    assert [r.name for r in svc.history] == ["startup", "periodic", "final"]
    print("probes", [(r.name, r.healthy) for r in svc.history])


if __name__ == "__main__":
    main()
