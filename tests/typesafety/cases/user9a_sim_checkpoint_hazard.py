# RUN: raises UseAfterTransferError via-call
# Planted bug: the checkpoint is summarized (summarize() reads the pinned buffer) before the download into it has been waited; the wait is moved after the logging call.
"""Heat-diffusion simulation that downloads a checkpoint every few steps."""
from __future__ import annotations

import logging
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

log = logging.getLogger("heatsim")
Host = nx.PinnedArray[nx.Owned, np.float64]
Dev = nx.DeviceArray[nx.Owned, np.float64]


@cuda.jit
def diffuse(src: Any, dst: Any, alpha: float) -> None:
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        left = src[i - 1] if i > 0 else src[i]
        right = src[i + 1] if i < src.size - 1 else src[i]
        dst[i] = src[i] + alpha * (left - 2.0 * src[i] + right)


def summarize(step: int, snap: nx.PinnedArray[Any, np.float64]) -> float:
    values = snap.read()
    energy = float(values.sum())
    log.info("step %d: energy %.6f, max %.4f", step, energy, float(values.max()))
    return energy


def run(n: int, steps: int, every: int) -> list[float]:
    s = nx.stream()
    init = np.zeros(n, np.float64)
    init[n // 2] = 1.0
    a: Dev = nx.device_array(n, np.float64)
    b: Dev = nx.device_array(n, np.float64)
    s.upload_staged(init, to=a).wait()
    snap: Host = nx.pinned_array(n, np.float64)
    energies: list[float] = []
    for step in range(1, steps + 1):
        s.launch(diffuse, 1, 64, a, b, 0.2)
        a, b = b, a
        if step % every == 0:
            down = s.download(a, into=snap)
            energies.append(summarize(step, snap))  # E: use-after-transfer
            snap = down.wait()
    s.close()
    return energies


def main() -> None:
    energies = run(64, 12, 4)
    assert len(energies) == 3
    assert all(abs(e - 1.0) < 1e-9 for e in energies), energies
    print("checkpoints:", energies)


if __name__ == "__main__":
    main()
