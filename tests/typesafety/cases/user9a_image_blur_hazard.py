# RUN: raises UseAfterTransferError
# Planted bug: the frame peak is read from the staging buffer before the upload that took it is waited.
"""Box-blur a stack of grayscale frames on the GPU, one frame at a time."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def blur3(src: Any, dst: Any, width: int) -> None:
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        x = i % width
        left = src[i - 1] if x > 0 else src[i]
        right = src[i + 1] if x < width - 1 else src[i]
        dst[i] = (left + src[i] + right) / 3.0


class FrameBlur:
    def __init__(self, height: int, width: int) -> None:
        self.width = width
        self.n = height * width
        self.stream = nx.stream()
        self.staging: Host = nx.pinned_array(self.n, np.float32)
        self.d_src: Dev = nx.device_array(self.n, np.float32)
        self.d_dst: Dev = nx.device_array(self.n, np.float32)
        self.frames_done = 0

    def process(self, frame: NDArray[np.float32]) -> NDArray[np.float32]:
        with self.staging.write() as buf:
            buf[:] = frame.ravel()
        up = self.stream.upload(self.staging, to=self.d_src)
        self.stream.launch(blur3, 2, 64, self.d_src, self.d_dst, self.width)
        peak = float(self.staging.read().max())  # E: use-after-transfer
        self.staging = up.wait()
        down = self.stream.download(self.d_dst, into=self.staging)
        self.staging = down.wait()
        self.frames_done += 1
        out = self.staging.read().copy().reshape(frame.shape)
        assert out.max() <= peak + 1e-5
        return out

    def close(self) -> None:
        self.d_src.free()
        self.d_dst.free()
        self.stream.close()


def main() -> None:
    h, w = 8, 16
    rng = np.random.default_rng(3)
    frames = [rng.random((h, w), dtype=np.float32) for _ in range(3)]
    blur = FrameBlur(h, w)
    results = [blur.process(f) for f in frames]
    blur.close()
    for f, r in zip(frames, results):
        p = np.pad(f, ((0, 0), (1, 1)), mode="edge")
        expected = (p[:, :-2] + p[:, 1:-1] + p[:, 2:]) / 3.0
        assert np.allclose(r, expected, atol=1e-5)
    print(f"blurred {blur.frames_done} frames")


if __name__ == "__main__":
    main()
