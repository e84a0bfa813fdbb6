# nx.mapped(arr) maps numpy memory in place: the block ends while the mapping is not
# waited (the device may still use the memory); the wait comes after the block.
# RUN: raises UnfinishedTransferError via-call
from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx


def stage_in_place(arr: NDArray[np.float32], s: nx.Stream[nx.Owned]) -> float:
    scratch = nx.device_array(arr.shape, np.float32)
    with nx.mapped(arr) as m:  # E: unfinished-transfer "mp"
        mp = s.map(m)
        s.copy(mp.device, to=scratch)
    m = mp.wait()
    scratch.free()
    return float(m.read()[0])


def main() -> float:
    s = nx.stream()
    arr = np.arange(16, dtype=np.float32)
    total = stage_in_place(arr, s)
    s.close()
    return total


main()
