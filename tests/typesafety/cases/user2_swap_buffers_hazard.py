# Double buffering by swapping names: while the CPU post-processes `front`, the next
# frame downloads into `back`; at the end of each step the two are swapped with a tuple
# assignment. BUG: the swap comes right after the download is queued ("front is the new
# frame now"), so the post-processing reads the buffer the download still holds.
# RUN: raises UseAfterTransferError
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

N = 8


@cuda.jit
def produce(a: Any, step: float) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] = step


def main(steps: int = 4) -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    front = nx.pinned_array(N, np.float32)
    back = nx.pinned_array(N, np.float32)
    s.launch(produce, 1, N, dev, 0.0)
    front = s.download(dev, into=front).wait()
    seen: list[float] = []
    for step in range(1, steps + 1):
        s.launch(produce, 1, N, dev, float(step))
        pending = s.download(dev, into=back)  # the next frame lands in back
        front, back = back, front  # renames only (the runtime accepts it): the use is below
        seen.append(float(front.read().mean()))  # E: use-after-transfer "front" "is used"
        front = pending.wait()
    seen.append(float(front.read().mean()))
    s.close()
    assert seen == [float(k) for k in range(steps + 1)], seen


main()
