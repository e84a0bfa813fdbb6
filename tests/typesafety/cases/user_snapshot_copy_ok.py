# A simulation that snapshots its state every few steps: the state lives on the
# device, a device-to-device copy (s_snap.copy) takes a snapshot on a second stream
# (ordered after the compute stream's kernel by numbaxfer's event wait), and the
# snapshot is downloaded for the host-side log; every transfer is completed.
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx


@cuda.jit
def advance(state: Any, dt: float) -> None:
    i = cuda.grid(1)
    if i < state.size:
        state[i] += dt * (i + 1)


def simulate(steps: int = 6, every: int = 2, n: int = 8) -> list[float]:
    s_comp, s_snap = nx.stream(), nx.stream()
    state = nx.device_array(n, np.float32)
    snap = nx.device_array(n, np.float32)
    init = nx.pinned_copy(np.zeros(n, np.float32))
    init = s_comp.upload(init, to=state).wait()
    log_buf = nx.pinned_array(n, np.float32)
    log: list[float] = []
    for step in range(steps):
        s_comp.launch(advance, 1, n, state, 0.5)
        if (step + 1) % every:
            continue
        cp = s_snap.copy(state, to=snap)
        down = s_snap.download(snap, into=log_buf)
        cp.wait()
        log_buf = down.wait()
        log.append(float(log_buf.read().sum()))
    s_comp.close()
    s_snap.close()
    return log


def main() -> list[float]:
    log = simulate()
    assert log == [0.5 * k * 36 for k in (2, 4, 6)], log
    return log


main()
