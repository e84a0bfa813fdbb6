# A cancellable batch job: frames are processed one by one (upload, kernel, download into
# a pinned result buffer) until a threading.Event says stop (set here by a progress
# callback after a few frames). On cancel the loop breaks, but only after the frame in
# flight has been taken back.
# RUN: ok
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
        down = s.download(dev, into=up)
        progress(k)
        buf = down.wait()
        sums.append(float(buf.read().sum()))
        if cancel.is_set():
            break
    s.close()
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
