# A video post-processing loop with a FIFO of frames in flight (collections.deque of
# dataclass frames): a new frame is enqueued (upload, filter kernel, chained download
# into the same buffer), and once `depth` frames are in flight the oldest is completed
# and encoded. The preview is taken from the frame that has come home.
# The bug: the preview is taken from the frame just enqueued, whose buffer the chained
# download still owns.
# RUN: raises UseAfterTransferError
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def brighten(src: Any, dst: Any) -> None:
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        dst[i] = min(src[i] + 0.25, 1.0)


@dataclass
class Frame:
    index: int
    host: Host
    d_in: Dev
    d_out: Dev
    pending: nx.Transfer[Host] | None = None


def encode(frame: Frame, encoded: list[float]) -> None:
    if frame.pending is not None:
        frame.host = frame.pending.wait()
        frame.pending = None
    encoded.append(float(frame.host.read().mean()))


def main(frames: int = 6, depth: int = 2, pixels: int = 64) -> None:
    s = nx.stream()
    inflight: deque[Frame] = deque()
    encoded: list[float] = []
    previews: list[float] = []
    for i in range(frames):
        host = nx.pinned_copy(np.full(pixels, i / 10.0, np.float32))
        frame = Frame(i, host, nx.device_array(pixels, np.float32), nx.device_array(pixels, np.float32))
        up = s.upload(frame.host, to=frame.d_in)
        s.launch(brighten, 1, 32, frame.d_in, frame.d_out)
        frame.pending = s.download(frame.d_out, into=up)
        inflight.append(frame)
        if len(inflight) > depth:
            oldest = inflight.popleft()
            encode(oldest, encoded)
            previews.append(float(frame.host.read()[0]))  # E: use-after-transfer "frame.host"
    while inflight:
        encode(inflight.popleft(), encoded)
    s.close()
    assert len(encoded) == frames and len(previews) == frames - depth
    assert np.allclose(encoded, [min(i / 10.0 + 0.25, 1.0) for i in range(frames)])


if __name__ == "__main__":
    main()
