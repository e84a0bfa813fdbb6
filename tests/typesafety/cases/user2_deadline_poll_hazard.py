# A frame grabber with a per-frame deadline: each frame's download is polled with done()
# until a deadline, late frames are counted, and the frame is read. BUG: only a frame on
# time is waited; a late one returns `out` still held by its download (never completed).
# (No RUN header: on the simulator every copy is done at once, so the late path is not taken.)
from __future__ import annotations

import time
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 16


@cuda.jit
def render(frame: Any, t: float) -> None:
    i = cuda.grid(1)
    if i < frame.size:
        frame[i] = t + i


def fetch(s: nx.Stream[nx.Owned], dev: Dev, out: Host, timeout: float) -> tuple[Host, bool]:
    down = s.download(dev, into=out)  # E: unfinished-transfer "down" "on some path"
    deadline = time.monotonic() + timeout
    on_time = True
    while not down.done():
        if time.monotonic() > deadline:
            on_time = False
            break
        time.sleep(0.0001)
    if on_time:
        out = down.wait()
    return out, on_time  # E: use-after-transfer "out" "may be used"


def main(frames: int = 4) -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    out = nx.pinned_array(N, np.float32)
    late = 0
    firsts = []
    for f in range(frames):
        s.launch(render, 1, N, dev, float(f))
        out, on_time = fetch(s, dev, out, timeout=0.05)
        late += not on_time
        firsts.append(float(out.read()[0]))
    s.close()
    assert firsts == [float(f) for f in range(frames)], firsts
    print(f"{late} late frames")


main()
