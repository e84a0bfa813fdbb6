# A streaming encoder that keeps one download in flight: at the top of each iteration
# the previous result is taken back (if there is one) and consumed, then the next
# result's download is started into the same buffer. Sizes are logged from metadata
# while the buffer is in flight.
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N, FRAMES = 16, 5


@cuda.jit
def encode(dev: Any, frame: int) -> None:
    i = cuda.grid(1)
    if i < dev.size:
        dev[i] = frame * 10 + i


def run() -> list[float]:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    out = nx.pinned_array(N, np.float32)
    pending: nx.Transfer[Host] | None = None
    firsts: list[float] = []
    for frame in range(FRAMES):
        if pending is not None:
            out = pending.wait()
            firsts.append(float(out.read()[0]))
        s.launch(encode, 1, N, dev, frame)
        pending = s.download(dev, into=out)
        print(f"frame {frame}: {out.shape[0]} values, {out.nbytes} bytes in flight")
    if pending is not None:
        out = pending.wait()
        firsts.append(float(out.read()[0]))
    s.close()
    return firsts


firsts = run()
assert firsts == [0.0, 10.0, 20.0, 30.0, 40.0], firsts
print(firsts)
