# Reported at the call proc.push() (line 64), whose next call writes the slot it left in flight: the ring rule of docs/static-checker.md.
# A video-frame processor: a ring of 3 pinned frames and a frame counter; frame i is
# decoded into slot i % 3 and uploaded while earlier frames are still in flight. The
# bug: the next frame is decoded into the slot before its previous transfer is waited.
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.uint8]
H, W = 4, 8
RING = 3


@cuda.jit
def brighten(frame: Any) -> None:
    i = cuda.grid(1)
    if i < frame.size:
        frame[i] = min(255, frame[i] + 10)


def decode(counter: int, out: Any) -> None:
    out[:] = counter % 200


class FrameProcessor:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.frames: list[Host] = [nx.pinned_array((H * W,), np.uint8) for _ in range(RING)]
        self.devs = [nx.device_array((H * W,), np.uint8) for _ in range(RING)]
        self.pending: list[nx.Transfer[Host] | None] = [None] * RING
        self.counter = 0
        self.checksum = 0

    def push(self) -> None:
        k = self.counter % RING
        with self.frames[k].write() as a:
            decode(self.counter, a)
        t = self.pending[k]
        if t is not None:
            self.frames[k] = t.wait()
            self.checksum += int(self.frames[k].read()[0])
        up = self.s.upload(self.frames[k], to=self.devs[k])
        self.s.launch(brighten, 1, H * W, self.devs[k])
        self.pending[k] = self.s.download(self.devs[k], into=up)
        self.counter += 1

    def flush(self) -> None:
        for k, t in enumerate(self.pending):
            if t is not None:
                self.frames[k] = t.wait()
                self.checksum += int(self.frames[k].read()[0])
                self.pending[k] = None
        self.s.close()


proc = FrameProcessor()
for _ in range(7):
    proc.push()  # E: use-after-transfer "proc.frames" "FrameProcessor.push() moved one of its elements"
proc.flush()
assert proc.checksum == sum(range(7)) + 70, proc.checksum
print("frames:", proc.counter, "checksum:", proc.checksum)
