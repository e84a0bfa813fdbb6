# RUN: ok
"""Background subtraction over a video, with a ring of slots indexed by frame number.

Each slot (a dataclass) owns a stream, a pinned frame buffer and device buffers, and
remembers the transfer in flight and the frame it holds. Frame ``f`` goes to slot
``f % depth``; before the slot is refilled, the frame it held ``depth`` frames ago is
collected. The background plate is uploaded once and read by every slot's kernel.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@nx.kernel(reads=["frame", "background"], writes=["mask"])
@cuda.jit
def subtract(frame: Any, background: Any, mask: Any, threshold: Any) -> None:
    """``mask = 1`` where the frame differs from the background by more than threshold."""
    for i in range(cuda.grid(1), frame.size, cuda.gridsize(1)):
        d = frame[i] - background[i]
        if d < 0:
            d = -d
        mask[i] = 1.0 if d > threshold else 0.0


def grid_for(n: int) -> tuple[int, int]:
    return max(1, min(64, n // 256)), 64


def synth_frame(index: int, width: int, height: int) -> NDArray[np.float32]:
    """A flat grey background with a bright 4x4 square moving right."""
    img = np.full((height, width), 0.25, dtype=np.float32)
    x = (2 * index) % (width - 4)
    img[2:6, x : x + 4] = 0.9
    return img.reshape(-1)


@dataclass
class Slot:
    stream: nx.Stream[nx.Owned]
    host: Host
    dev_frame: Dev
    dev_mask: Dev
    pending: nx.Transfer[Host] | None = None
    frame: int = -1


@dataclass
class MotionRing:
    width: int
    height: int
    depth: int = 3
    threshold: float = 0.3
    slots: list[Slot] = field(default_factory=list)
    counts: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        n = self.width * self.height
        self.background: Dev = nx.device_array(n, np.float32)
        plate = np.full(n, 0.25, dtype=np.float32)
        self.setup = nx.stream()
        self.setup.upload_staged(plate, to=self.background)
        for _ in range(self.depth):
            self.slots.append(
                Slot(
                    nx.stream(),
                    nx.pinned_array(n, np.float32),
                    nx.device_array(n, np.float32),
                    nx.device_array(n, np.float32),
                )
            )

    def collect(self, slot: Slot) -> None:
        """Take the slot's buffer back and count the moving pixels of its frame."""
        if slot.pending is None:
            return
        slot.host = slot.pending.wait()
        slot.pending = None
        self.counts[slot.frame] = int(slot.host.read().sum())

    def push(self, index: int, pixels: NDArray[np.float32]) -> None:
        slot = self.slots[index % self.depth]
        self.collect(slot)  # the frame this slot held depth frames ago
        with slot.host.write() as a:
            a[:] = pixels
        up = slot.stream.upload(slot.host, to=slot.dev_frame)
        blocks, threads = grid_for(pixels.size)
        with self.background.lend() as bg:
            slot.stream.launch(
                subtract, blocks, threads, slot.dev_frame, bg, slot.dev_mask,
                np.float32(self.threshold),
            )
        slot.pending = slot.stream.download(slot.dev_mask, into=up)
        slot.frame = index

    def flush(self) -> None:
        for slot in sorted(self.slots, key=lambda s: s.frame):
            self.collect(slot)

    def close(self) -> None:
        self.flush()
        for slot in self.slots:
            slot.stream.close()
        self.setup.close()


def main(frames: int = 8, width: int = 24, height: int = 8) -> dict[int, int]:
    ring = MotionRing(width, height)
    for f in range(frames):
        ring.push(f, synth_frame(f, width, height))
    ring.flush()
    counts = dict(ring.counts)
    ring.close()
    assert sorted(counts) == list(range(frames)), counts
    assert all(c == 16 for c in counts.values()), counts
    return counts


if __name__ == "__main__":
    result = main()
    print(f"frame_ring: {len(result)} frames, moving pixels {sorted(set(result.values()))}")
