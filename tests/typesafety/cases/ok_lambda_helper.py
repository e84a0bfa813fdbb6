# Local helpers (lambdas and nested defs) that move their parameter: the caller takes
# the buffer back from the transfer the lambda returns, or rebinds it from the handle
# the nested def returns; a lambda that only reads checks clean. Correct.
# RUN: ok
from __future__ import annotations

from collections.abc import Callable

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def main() -> float:
    s = nx.stream()
    dev = nx.device_array(16, np.float32)
    quick: Callable[[Host], nx.Transfer[Host]] = lambda b: s.upload(b, to=dev)
    peek: Callable[[Host], float] = lambda b: float(b.read()[0])

    def push(b: Host) -> Host:
        return s.upload(b, to=dev).wait()

    host = nx.pinned_array(16, np.float32)
    total = peek(host)
    for _ in range(2):
        t = quick(host)
        total += host.shape[0]
        host = t.wait()
        total += peek(host)
        host = push(host)
    total += peek(host)
    s.close()
    return total


main()
