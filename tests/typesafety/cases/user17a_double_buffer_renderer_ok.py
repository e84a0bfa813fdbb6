# RUN: ok
"""A double-buffered frame renderer: the CPU draws frame N+1 while the GPU tone-maps
frame N, and the presenter only ever looks at the finished (front) buffer.

The back buffer is drawn on the host, uploaded, tone-mapped on the device and
downloaded back into the same pinned memory (the download chains onto the upload).
``swap()`` takes the finished frame back from its transfer and makes it the front.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def tone_map(src: Any, dst: Any, exposure: Any) -> None:
    """Reinhard-style ``dst = e x / (1 + e x)`` on a flattened image."""
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        v = src[i] * exposure
        dst[i] = v / (1.0 + v)


def grid_for(n: int) -> tuple[int, int]:
    return max(1, min(64, n // 256)), 64


def draw_scene(pixels: NDArray[np.float32], frame: int, width: int, height: int) -> None:
    """A horizontal gradient that scrolls by one column a frame."""
    cols = (np.arange(width, dtype=np.float32) + frame) % width
    img = np.broadcast_to(cols / np.float32(width - 1) * np.float32(4.0), (height, width))
    pixels[:] = img.reshape(-1)


def expected_frame(frame: int, width: int, height: int, exposure: float) -> NDArray[np.float32]:
    ref = np.empty(width * height, dtype=np.float32)
    draw_scene(ref, frame, width, height)
    v = ref * np.float32(exposure)
    out: NDArray[np.float32] = v / (np.float32(1.0) + v)
    return out


class DoubleBufferRenderer:
    """Two pinned frames: ``front`` (finished, presentable) and ``back`` (being drawn or
    in flight on the GPU)."""

    def __init__(self, width: int, height: int, exposure: float = 0.8) -> None:
        n = width * height
        self.width, self.height = width, height
        self.exposure = np.float32(exposure)
        self.stream = nx.stream()
        self.front: Host = nx.pinned_array(n, np.float32)
        self.back: Host = nx.pinned_array(n, np.float32)
        self.dev_in: Dev = nx.device_array(n, np.float32)
        self.dev_out: Dev = nx.device_array(n, np.float32)
        self.in_flight: nx.Transfer[Host] | None = None
        self.in_flight_frame = -1
        self.front_frame = -1

    def submit(self, frame: int) -> None:
        """Draw ``frame`` into the back buffer and send it through the GPU."""
        assert self.in_flight is None, "swap() before submitting the next frame"
        with self.back.write() as px:
            draw_scene(px, frame, self.width, self.height)
        up = self.stream.upload(self.back, to=self.dev_in)
        blocks, threads = grid_for(self.dev_in.size)
        self.stream.launch(tone_map, blocks, threads, self.dev_in, self.dev_out, self.exposure)
        self.in_flight = self.stream.download(self.dev_out, into=up)
        self.in_flight_frame = frame

    def swap(self) -> None:
        """Take the finished frame back and make it the front buffer."""
        if self.in_flight is None:
            return
        finished = self.in_flight.wait()
        self.in_flight = None
        self.back, self.front = self.front, finished
        self.front_frame = self.in_flight_frame

    def present(self) -> tuple[int, float]:
        """What a display would show: the front frame and its mean brightness."""
        img = self.front.read()
        return self.front_frame, float(img.mean(dtype=np.float64))

    def front_pixels(self) -> NDArray[np.float32]:
        return self.front.read().copy()

    def close(self) -> None:
        self.swap()
        self.stream.close()


def main(frames: int = 5, width: int = 32, height: int = 8) -> list[tuple[int, float]]:
    renderer = DoubleBufferRenderer(width, height)
    shown: list[tuple[int, float]] = []
    for frame in range(frames):
        renderer.submit(frame)
        if frame > 0:
            shown.append(renderer.present())  # frame - 1, finished at the last swap
        renderer.swap()
    shown.append(renderer.present())
    last = renderer.front_pixels()
    renderer.close()

    assert [f for f, _ in shown] == list(range(frames)), shown
    for f, mean in shown:
        ref = expected_frame(f, width, height, 0.8)
        assert abs(mean - float(ref.mean(dtype=np.float64))) < 1e-5, (f, mean)
    assert np.allclose(last, expected_frame(frames - 1, width, height, 0.8), atol=1e-6)
    return shown


if __name__ == "__main__":
    result = main()
    print(f"double_buffer_renderer: {len(result)} frames presented")
