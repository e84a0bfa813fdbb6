# RUN: raises BorrowError
# Planted bug: the marker write was moved inside the lend block ("while we have it
# open"), writing the owner while it is lent.
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def scale(a: Any, factor: float) -> None:
    """``a *= factor`` (grid-stride loop)."""
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] *= factor


class Smoother:
    def __init__(self, n: int) -> None:
        self.avg = np.zeros(n, dtype=np.float32)
        self.count = 0

    def update(self, frame: Host) -> None:
        with frame.lend() as view:
            self.count += 1
            self.avg += (view.read() - self.avg) / self.count
            with frame.write() as a:  # E: owner-borrowed
                a[0] = -1.0


def main(n: int = 64) -> float:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    frame = nx.pinned_copy(np.ones(n, dtype=np.float32))
    frame = s.upload(frame, to=dev).wait()
    sm = Smoother(n)
    for _ in range(3):
        s.launch(scale, 1, 64, dev, 2.0)
        frame = s.download(dev, into=frame).wait()
        sm.update(frame)
        frame = s.upload(frame, to=dev).wait()
    s.close()
    assert abs(float(sm.avg[1]) - (2.0 + 4.0 + 8.0) / 3.0) < 1e-5, sm.avg[1]
    return float(sm.avg[1])


if __name__ == "__main__":
    main()
