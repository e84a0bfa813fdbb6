# RUN: raises StreamClosedError via-call
# XFAIL: miss (line 71, silence by design): drain() collects range(len(self.slots) - 1) slots and leaves the last one's download pending, so close() is refused; an off-by-one in a loop bound needs arithmetic the checker does not do
# Planted bug: drain() skips the last slot of the ring (off-by-one), so that slot's download is never completed and close() refuses the stream.
"""Streaming a time series of frames through a ring of slots (NamedTuple of stream,
device buffer and pending download); each frame is scaled by a per-frame coefficient."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def frame_kernel(buf: Any, coeff: float) -> None:
    for i in range(cuda.grid(1), buf.size, cuda.gridsize(1)):
        buf[i] = buf[i] * coeff + 1.0


class Slot(NamedTuple):
    stream: nx.Stream[nx.Owned]
    dev: nx.DeviceArray[nx.Owned, np.float32]


class FrameRing:
    def __init__(self, depth: int, frame: int) -> None:
        self.frame = frame
        self.slots = [Slot(nx.stream(), nx.device_array(frame, np.float32)) for _ in range(depth)]
        self.pending: list[nx.Transfer[Host] | None] = [None] * depth
        self.sums: dict[int, float] = {}
        self.owner: dict[int, int] = {}

    def collect(self, k: int) -> None:
        t = self.pending[k]
        if t is not None:
            self.pending[k] = None
            host = t.wait()
            self.sums[self.owner[k]] = float(host.read().sum())
            host.free()

    def submit(self, index: int, coeff: float) -> None:
        k = index % len(self.slots)
        self.collect(k)
        slot = self.slots[k]
        host = nx.pinned_copy(np.full(self.frame, float(index), dtype=np.float32))
        up = slot.stream.upload(host, to=slot.dev)
        slot.stream.launch(frame_kernel, 1, 64, slot.dev, coeff)
        self.pending[k] = slot.stream.download(slot.dev, into=up)
        self.owner[k] = index

    def drain(self) -> None:
        for k in range(len(self.slots) - 1):
            self.collect(k)

    def close(self) -> None:
        for slot in self.slots:
            slot.stream.close()


def main() -> None:
    frame, frames = 256, 7
    ring = FrameRing(depth=3, frame=frame)
    for i in range(frames):
        ring.submit(i, coeff=0.5)
    ring.drain()
    ring.close()  # E: unfinished-transfer
    for i in range(frames):
        assert ring.sums[i] == frame * (0.5 * i + 1.0), (i, ring.sums[i])
    print("ring sums:", [ring.sums[i] for i in range(frames)])


if __name__ == "__main__":
    main()
