# RUN: raises UseAfterTransferError
# Multi-camera capture: one dataclass per camera holds its pinned frame buffer, its
# device frame and the upload in flight. All cameras are uploaded first, then each
# upload is taken back, and only then are the exposure statistics computed on the host.
# The bug: the exposure statistics are gathered before the loop that takes the uploads
# back (it was moved below to "overlap" the host work with the copies).
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def debayer(src: Any, dst: Any) -> None:
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        dst[i] = 0.5 * src[i]


@dataclass
class Camera:
    name: str
    frame: Host
    d_raw: Dev
    d_rgb: Dev
    pending: nx.Transfer[Host] | None = None


def open_cameras(names: list[str], pixels: int) -> list[Camera]:
    return [
        Camera(
            name,
            nx.pinned_array(pixels, np.float32),
            nx.device_array(pixels, np.float32),
            nx.device_array(pixels, np.float32),
        )
        for name in names
    ]


def capture(cams: list[Camera], s: nx.Stream[nx.Owned], tick: int) -> dict[str, float]:
    for k, cam in enumerate(cams):
        with cam.frame.write() as a:
            a[:] = float(tick + k)  # stands in for the driver's frame grab
        cam.pending = s.upload(cam.frame, to=cam.d_raw)
        s.launch(debayer, 1, 32, cam.d_raw, cam.d_rgb)
    exposure = {cam.name: float(cam.frame.read().mean()) for cam in cams}  # E: use-after-transfer "cam.frame"
    for cam in cams:
        if cam.pending is not None:
            cam.frame = cam.pending.wait()
            cam.pending = None
    return exposure


def main(ticks: int = 2, pixels: int = 32) -> None:
    s = nx.stream()
    cams = open_cameras(["left", "right", "rear"], pixels)
    for tick in range(ticks):
        exposure = capture(cams, s, tick)
        assert exposure == {"left": tick, "right": tick + 1.0, "rear": tick + 2.0}, exposure
    s.close()


if __name__ == "__main__":
    main()
