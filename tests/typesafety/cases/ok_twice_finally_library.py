# RUN: ok
# A prefetching loop: the transfer completed at the top of each iteration is replaced
# by a new download before any code of the program runs; the finally completes the one
# in flight. Only a CUDA failure of the launch or the download in between could leave
# the finally a completed transfer: not reported (see twice_finally_after_program_code).
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def tick(a: Any, step: int) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] += step


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    s.upload_staged(np.zeros(8, dtype=np.float32), to=dev).wait()
    bufs = [nx.pinned_array(8, np.float32) for _ in range(2)]
    sums: list[float] = []
    pending = s.download(dev, into=bufs.pop())
    try:
        for step in range(1, 4):
            current = pending.wait()
            s.launch(tick, 1, 8, dev, step)
            pending = s.download(dev, into=bufs.pop())
            sums.append(float(current.read().sum()))
            bufs.append(current)
    finally:
        bufs.append(pending.wait())
    assert sums == [0.0, 8.0, 24.0], sums
    s.close()


if __name__ == "__main__":
    main()
