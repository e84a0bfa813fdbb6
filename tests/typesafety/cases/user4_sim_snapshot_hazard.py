# A simulation time-step loop on the device, with a snapshot of the state downloaded
# every K steps; the snapshot is taken back at the next snapshot (or at the end), so the
# copy overlaps the following steps. The bug: the final snapshot is read without
# taking it back from its download (the last pending transfer is never completed).
# RUN: raises UseAfterTransferError
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N, STEPS, K = 32, 9, 3


@cuda.jit
def step(u: Any, dt: float) -> None:
    i = cuda.grid(1)
    if i < u.size:
        u[i] = u[i] + dt


def simulate() -> list[float]:
    s = nx.stream()
    state = nx.device_array(N, np.float32)
    init = nx.pinned_copy(np.zeros(N, np.float32))
    init = s.upload(init, to=state).wait()
    snap = nx.pinned_array(N, np.float32)
    pending: nx.Transfer[Host] | None = None
    history: list[float] = []
    for t in range(1, STEPS + 1):
        s.launch(step, 1, N, state, 1.0)
        if t % K == 0:
            if pending is not None:
                snap = pending.wait()
                history.append(float(snap.read()[0]))
            pending = s.download(state, into=snap)  # E: unfinished-transfer "pending"
    s.synchronize()
    history.append(float(snap.read()[0]))  # E: use-after-transfer "snap"
    s.close()  # E: unfinished-transfer "is closed"
    return history


history = simulate()
assert history == [3.0, 6.0, 9.0], history
print("snapshots:", history)
