# Rule 2, correct: inside an nx.pinned block that only reads its array, the last
# statement starts uploads of owned pinned buffers (not the block's memory) kept in a
# display, or unpacked from one; they are completed after the block.
# (from the adversarial review of session 17's rules)
# RUN: ok
from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]
Host = nx.PinnedArray[nx.Owned, np.float32]


def fill(n: int, value: float) -> Host:
    h = nx.pinned_array(n, np.float32)
    with h.write() as w:
        w[:] = value
    return h


def scaled(a: NDArray[np.float32], d: Dev, e: Dev) -> float:
    s = nx.stream()
    with nx.pinned(a) as ha:
        peak = float(ha.read().max())
        ups = [s.upload(fill(8, peak), to=d), s.upload(fill(8, -peak), to=e)]
    total = 0.0
    for up in ups:
        h = up.wait()
        total += float(h.read().sum())
        h.free()
    return total


def unpacked(a: NDArray[np.float32], d: Dev, e: Dev) -> float:
    s = nx.stream()
    with nx.pinned(a) as ha:
        mean = float(ha.read().mean())
        up1, up2 = s.upload(fill(8, mean), to=d), s.upload(fill(8, 2 * mean), to=e)
    h1 = up1.wait()
    h2 = up2.wait()
    out = float(h1.read()[0] + h2.read()[0])
    h1.free()
    h2.free()
    return out


x = np.ones(8, np.float32)
dd, de = nx.device_array(8, np.float32), nx.device_array(8, np.float32)
print(scaled(x, dd, de), unpacked(x, dd, de))
