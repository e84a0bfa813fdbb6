# Periodic evaluation during training: every step updates the parameters on the
# device, and only evaluation steps download them (a conditional expression makes the
# transfer or None); the evaluation reads the host copy only after taking it back.
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def update(w: Any, lr: float) -> None:
    i = cuda.grid(1)
    if i < w.size:
        w[i] -= lr


def train(steps: int = 5, every: int = 2, n: int = 8) -> list[float]:
    s = nx.stream()
    w = nx.device_array(n, np.float32)
    params = nx.pinned_copy(np.ones(n, np.float32))
    params = s.upload(params, to=w).wait()
    evals: list[float] = []
    for step in range(1, steps + 1):
        s.launch(update, 1, n, w, 0.125)
        want = step % every == 0
        down = s.download(w, into=params) if want else None
        if down is not None:
            params = down.wait()
            evals.append(float(params.read().mean()))
        else:
            continue
    s.close()
    return evals


def main() -> list[float]:
    got = train()
    assert got == [0.75, 0.5], got
    return got


main()
