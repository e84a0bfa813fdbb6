# RUN: ok
"""Ring buffer of download slots for a streaming metrics exporter.

Each tick a kernel writes a frame of per-bucket counters on the device; the frame is
downloaded into the next slot of a ring. A slot's previous download is completed (and
its frame exported) before the slot is reused; ``flush()`` drains the rest.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.int32]


@cuda.jit
def histogram_tick(frame: Any, tick: int) -> None:
    i = cuda.grid(1)
    if i < frame.size:
        frame[i] = (i * 7 + tick) % 13


class Slot(NamedTuple):
    tick: int
    download: nx.Transfer[Host]


class FrameRing:
    def __init__(self, slots: int, buckets: int) -> None:
        self.buckets = buckets
        self.stream = nx.stream()
        self.frames = [nx.device_array(buckets, np.int32) for _ in range(slots)]
        self.spare: list[Host] = [nx.pinned_array(buckets, np.int32) for _ in range(slots)]
        self.ring: list[Slot | None] = [None] * slots
        self.head = 0
        self.exported: dict[int, int] = {}

    def _export(self, slot: Slot) -> Host:
        host = slot.download.wait()
        self.exported[slot.tick] = int(host.read().sum())
        return host

    def push(self, tick: int) -> None:
        k = self.head
        old = self.ring[k]
        if old is not None:
            self.spare.append(self._export(old))
        frame = self.frames[k]
        self.stream.launch(histogram_tick, (self.buckets + 63) // 64, 64, frame, tick)
        self.ring[k] = Slot(tick, self.stream.download(frame, into=self.spare.pop()))
        self.head = (k + 1) % len(self.ring)

    def flush(self) -> None:
        for k, slot in enumerate(self.ring):
            if slot is not None:
                self.spare.append(self._export(slot))
                self.ring[k] = None

    def close(self) -> None:
        self.flush()
        self.stream.close()


def main() -> None:
    buckets, ticks = 64, 7
    ring = FrameRing(3, buckets)
    for tick in range(ticks):
        ring.push(tick)
    ring.close()
    expected = {t: int(sum((i * 7 + t) % 13 for i in range(buckets))) for t in range(ticks)}
    assert all(ring.exported[t] == expected[t] for t in ring.exported), ring.exported
    lost = sorted(set(expected) - set(ring.exported))
    print("ring_slots exported", len(ring.exported), "frames; lost:", lost)


if __name__ == "__main__":
    main()
