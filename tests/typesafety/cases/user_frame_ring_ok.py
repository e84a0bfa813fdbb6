# A video decoder: kernels "decode" each frame on the device into a staging device
# array, the frame is downloaded into one of a ring of pinned frames, and a consumer
# thread takes each download, waits for it, checksums the frame and puts the pinned
# frame back into the free queue for the producer to reuse.
# RUN: ok
from __future__ import annotations

import queue
import threading
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Frame = nx.PinnedArray[nx.Owned, np.uint8]


@cuda.jit
def decode(raw: Any, frame: Any, t: int) -> None:
    i = cuda.grid(1)
    if i < frame.size:
        frame[i] = (raw[i] + t) % 256


def play(frames: int = 6, size: int = 32, ring: int = 3) -> dict[int, int]:
    s = nx.stream()
    raw = nx.device_array(size, np.int32)
    out = nx.device_array(size, np.uint8)
    free: queue.Queue[Frame] = queue.Queue()
    for _ in range(ring):
        free.put(nx.pinned_array(size, np.uint8))
    todo: queue.Queue[tuple[int, nx.Transfer[Frame]] | None] = queue.Queue()
    sums: dict[int, int] = {}
    shown: list[int] = []

    def consumer() -> None:
        while True:
            item = todo.get()
            if item is None:
                break
            t, down = item
            frame = down.wait()
            sums[t] = int(frame.read().sum())
            free.put(frame)

    worker = threading.Thread(target=consumer, name="frame-consumer")
    worker.start()
    try:
        bitstream = nx.pinned_copy(np.arange(size, dtype=np.int32))
        bitstream = s.upload(bitstream, to=raw).wait()
        for t in range(frames):
            frame = free.get()
            s.launch(decode, 1, size, raw, out, t)
            shown.append(frame.shape[0])
            todo.put((t, s.download(out, into=frame)))
    finally:
        todo.put(None)
        worker.join()
    s.close()
    assert len(shown) == frames
    expected = {t: int(((np.arange(size) + t) % 256).sum()) for t in range(frames)}
    assert sums == expected, sums
    return sums


play()
