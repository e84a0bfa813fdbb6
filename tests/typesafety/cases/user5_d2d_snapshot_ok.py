# A diffusion simulation that keeps device-side snapshots: every `every` steps the state
# is copied device to device into the next snapshot array (Transfer[None], completed with
# wait() like any transfer), so the simulation runs on while the snapshots are kept; at
# the end every snapshot is downloaded into its own pinned buffer, all enqueued at once,
# and read once the downloads have given the buffers back.
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx


@cuda.jit
def diffuse(u: Any, v: Any) -> None:
    for i in range(cuda.grid(1), u.size, cuda.gridsize(1)):
        left = u[i - 1] if i > 0 else u[i]
        right = u[i + 1] if i < u.size - 1 else u[i]
        v[i] = u[i] + 0.25 * (left - 2.0 * u[i] + right)


def simulate(n: int = 32, steps: int = 12, every: int = 4) -> list[NDArray[np.float32]]:
    s = nx.stream()
    init = np.zeros(n, np.float32)
    init[n // 2] = 1.0
    u, v = nx.device_array(n, np.float32), nx.device_array(n, np.float32)
    s.upload_staged(init, to=u)
    snaps = [nx.device_array(n, np.float32) for _ in range(steps // every)]
    copies: list[nx.Transfer[None]] = []
    for step in range(1, steps + 1):
        s.launch(diffuse, 1, 32, u, v)
        u, v = v, u
        if step % every == 0:
            copies.append(s.copy(u, to=snaps[step // every - 1]))
    for t in copies:
        t.wait()
    hosts = [nx.pinned_array(n, np.float32) for _ in snaps]
    downs = [s.download(snap, into=h) for snap, h in zip(snaps, hosts)]
    hosts = [t.wait() for t in downs]
    out = [h.read().copy() for h in hosts]
    s.close()
    return out


if __name__ == "__main__":
    snaps = simulate()
    assert len(snaps) == 3 and all(abs(float(x.sum()) - 1.0) < 1e-5 for x in snaps)
    assert snaps[0].max() > snaps[1].max() > snaps[2].max()
    print("snapshots ok")
