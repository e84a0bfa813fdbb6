# nx.mapped(arr) maps numpy memory in place for device work; the mapping is waited
# inside the block, so the block ends after the device is done with it. Correct.
# RUN: ok
from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx


def stage_in_place(arr: NDArray[np.float32], s: nx.Stream[nx.Owned]) -> float:
    scratch = nx.device_array(arr.shape, np.float32)
    with nx.mapped(arr) as m:
        mp = s.map(m)
        s.copy(mp.device, to=scratch)
        m = mp.wait()
        first = float(m.read()[0])
    scratch.free()
    return first


def main() -> float:
    s = nx.stream()
    arr = np.arange(16, dtype=np.float32)
    total = stage_in_place(arr, s) + float(arr.sum())
    s.close()
    return total


main()
