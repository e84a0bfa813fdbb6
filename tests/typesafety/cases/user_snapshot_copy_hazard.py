# A simulation that snapshots its state every few steps: the state lives on the
# device, a device-to-device copy (s_snap.copy) takes a snapshot on a second stream
# (ordered after the compute stream's kernel by numbaxfer's event wait), and the
# snapshot is downloaded for the host-side log; every transfer is completed.
# Bug: logging was thinned to every other snapshot by moving the wait() under the `if`:
# the skipped snapshot's download is dropped, and the next snapshot downloads into a
# buffer that download still owns.
# RUN: raises UseAfterTransferError
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
        down = s_snap.download(snap, into=log_buf)  # E: use-after-transfer "log_buf"  # E: unfinished-transfer "down" "dropped"  # E: unfinished-transfer "down" "unfinished"
        cp.wait()
        if len(log) % 2 == 0:
            log_buf = down.wait()
        log.append(float(step))
    s_comp.close()
    s_snap.close()  # E: unfinished-transfer "is closed"
    return log


def main() -> list[float]:
    log = simulate()
    assert log == [1.0, 3.0, 5.0], log
    return log


main()
