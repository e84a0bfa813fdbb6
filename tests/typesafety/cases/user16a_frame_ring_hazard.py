# RUN: raises UseAfterTransferError via-call
# XFAIL: miss (line 70): _retire() kept the handle wait() returned in a local; slot.host is still the moved one
# Planted bug: _retire() kept the handle wait() returned in a local; slot.host is still the moved one
"""A video frame pipeline: frames go through a ring of slots, each with its own stream.

Frame k uses slot k % depth: upload the raw frame, a gamma kernel on the device, and the
download back into the same pinned buffer (chained onto the upload, no host wait). A
slot is retired (its download waited, its frame's brightness recorded) before it is
refilled with the frame `depth` positions later.
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


@cuda.jit
def gamma(src: Any, dst: Any, g: float) -> None:
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        dst[i] = src[i] ** g


@dataclass
class FrameSlot:
    stream: nx.Stream[nx.Owned]
    host: Host
    dev_in: Dev
    dev_out: Dev
    pending: nx.Transfer[Host] | None = None
    frame_id: int = -1
    history: list[int] = field(default_factory=list)


class FramePipeline:
    def __init__(self, width: int, height: int, depth: int = 3, g: float = 2.0) -> None:
        n = width * height
        self.depth = depth
        self.g = g
        self.slots = [
            FrameSlot(
                nx.stream(),
                nx.pinned_array(n, np.float32),
                nx.device_array(n, np.float32),
                nx.device_array(n, np.float32),
            )
            for _ in range(depth)
        ]
        self.brightness: dict[int, float] = {}

    def _retire(self, slot: FrameSlot) -> None:
        if slot.pending is None:
            return
        host = slot.pending.wait()
        slot.pending = None
        self.brightness[slot.frame_id] = float(host.read().mean(dtype=np.float64))

    def submit(self, frame_id: int, frame: NDArray[np.float32]) -> None:
        slot = self.slots[frame_id % self.depth]
        self._retire(slot)
        with slot.host.write() as a:  # E: transfer-completed-twice
            a[:] = frame.ravel()
        up = slot.stream.upload(slot.host, to=slot.dev_in)
        slot.stream.launch(gamma, 4, 64, slot.dev_in, slot.dev_out, self.g)
        slot.pending = slot.stream.download(slot.dev_out, into=up)
        slot.frame_id = frame_id
        slot.history.append(frame_id)

    def flush(self) -> None:
        for slot in self.slots:
            self._retire(slot)

    def close(self) -> None:
        self.flush()
        for slot in self.slots:
            slot.stream.close()


def make_frame(k: int, width: int, height: int) -> NDArray[np.float32]:
    yy, xx = np.mgrid[0:height, 0:width]
    frame: NDArray[np.float32] = ((xx + yy + k) % 8).astype(np.float32) / np.float32(8.0)
    return frame


def main() -> None:
    width, height, frames = 32, 24, 7
    pipe = FramePipeline(width, height, depth=3)
    for k in range(frames):
        pipe.submit(k, make_frame(k, width, height))
    pipe.close()
    assert sorted(pipe.brightness) == list(range(frames))
    for k in range(frames):
        expect = float(np.square(make_frame(k, width, height)).mean(dtype=np.float64))
        assert abs(pipe.brightness[k] - expect) < 1e-5, (k, pipe.brightness[k], expect)
    assert [s.history for s in pipe.slots] == [[0, 3, 6], [1, 4], [2, 5]]
    print("frame_ring: ok", {k: round(v, 4) for k, v in pipe.brightness.items()})


if __name__ == "__main__":
    main()
