# A frame filter with deferred take-back: frames arrive from a source until it returns
# None; each frame is uploaded, filtered and downloaded into one of two pinned output
# buffers, and the previous frame's download is taken back only at the next frame (so
# the host consumes frame k-1 while frame k is on the GPU). After the loop the last
# frame's download is taken back too.
# RUN: ok
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def threshold(x: Any, y: Any, t: float) -> None:
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        y[i] = 1.0 if x[i] > t else 0.0


def filter_frames(source: Iterator[NDArray[np.float32]], n: int) -> list[float]:
    s = nx.stream()
    d_in, d_out = nx.device_array(n, np.float32), nx.device_array(n, np.float32)
    stage = nx.pinned_array(n, np.float32)
    spare: Host = nx.pinned_array(n, np.float32)
    pending: nx.Transfer[Host] | None = None
    counts: list[float] = []
    while (frame := next(source, None)) is not None:
        with stage.write() as a:
            a[:] = frame
        up = s.upload(stage, to=d_in)
        s.launch(threshold, 1, 32, d_in, d_out, 0.5)
        down = s.download(d_out, into=spare)
        stage = up.wait()
        if pending is not None:
            prev = pending.wait()
            counts.append(float(prev.read().sum()))
            spare = prev
        else:
            spare = nx.pinned_array(n, np.float32)
        pending = down
    if pending is not None:
        last = pending.wait()
        counts.append(float(last.read().sum()))
    s.close()
    return counts


if __name__ == "__main__":
    frames = (np.linspace(0, 1, 32, dtype=np.float32) + 0.1 * k for k in range(4))
    counts = filter_frames(frames, 32)
    want = [float((np.linspace(0, 1, 32, dtype=np.float32) + 0.1 * k > 0.5).sum()) for k in range(4)]
    assert counts == want, (counts, want)
    print("deferred frames ok")
