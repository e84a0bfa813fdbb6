# XFAIL: miss, line 57: engine.fire() calls the lambda registered at line 47 (it reads host) while host is moved into the chained download (line 56); a closure stored in a container (Engine.hooks) and run through a method is not connected to the names it reads.
# Observer hooks: a small engine lets callers register callbacks (lambdas and closures)
# that inspect the input buffer. BUG: the engine fires the hooks right after enqueuing the
# round trip ("the step is submitted"), so the lambda reads `host` while the chained
# download holds it.
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

N = 8


@cuda.jit
def increment(a: Any) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] += 1.0


class Engine:
    def __init__(self) -> None:
        self.hooks: list[Callable[[], None]] = []
        self.log: list[str] = []

    def on_step(self, hook: Callable[[], None]) -> None:
        self.hooks.append(hook)

    def fire(self) -> None:
        for hook in self.hooks:
            hook()


def main(steps: int = 3) -> None:
    s = nx.stream()
    host = nx.pinned_array(N, np.float32)
    with host.write() as a:
        a[:] = 0.0
    dev = nx.device_array(N, np.float32)
    engine = Engine()
    engine.on_step(lambda: engine.log.append(f"first={host.read()[0]}"))

    def check() -> None:
        assert np.all(host.read() == host.read()[0])

    engine.on_step(check)
    for _ in range(steps):
        up = s.upload(host, to=dev)
        s.launch(increment, 1, N, dev)
        down = s.download(dev, into=up)
        engine.fire()  # E: use-after-transfer "host"
        host = down.wait()
    s.close()
    assert engine.log == ["first=1.0", "first=2.0", "first=3.0"], engine.log


main()
