# A cancellable batch job (see user5_cancellable_batch_ok.py). The bug, kind "a
# transfer never waited (on the cancel path)": the cancel check is moved up, right after
# the enqueue, so a cancelled run breaks out with the frame's download still in flight.
# (Simulator: StreamClosedError at s.close(), which names the download. No RUN header:
# the static report is at the download, the runtime's at the close.)
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def invert(a: Any) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = 1.0 - a[i]


def process(frames: list[NDArray[np.float32]], cancel: threading.Event, progress: Callable[[int], None]) -> list[float]:
    n = frames[0].size
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    buf: Host = nx.pinned_array(n, np.float32)
    sums: list[float] = []
    for k, frame in enumerate(frames):
        with buf.write() as a:
            a[:] = frame
        up = s.upload(buf, to=dev)
        s.launch(invert, 1, 32, dev)
        down = s.download(dev, into=up)  # E: unfinished-transfer "down"
        progress(k)
        if cancel.is_set():
            break
        buf = down.wait()
        sums.append(float(buf.read().sum()))
    s.close()  # E: unfinished-transfer "is closed"
    return sums


if __name__ == "__main__":
    cancel = threading.Event()

    def progress(k: int) -> None:
        if k == 2:
            cancel.set()

    frames = [np.full(32, 0.25 * k, np.float32) for k in range(6)]
    sums = process(frames, cancel, progress)
    assert sums == [32 * (1 - 0.25 * k) for k in range(3)], sums
    print("cancel ok")
