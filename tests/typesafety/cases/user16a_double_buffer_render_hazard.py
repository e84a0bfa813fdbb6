# RUN: raises UseAfterTransferError via-call
# XFAIL: miss (line 79): the front property returns the back buffer, which render()'s download owns
# Planted bug: the front property returns the back buffer, which render()'s download owns
"""A double-buffered renderer: the device shades frame t into the back buffer while the
application reads the front buffer (the frame before).

`render()` launches the shader and starts the download into the back buffer; `present()`
waits for that download and swaps the buffers; the `front` property is what the display
code reads.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def shade(img: Any, width: int, t: float) -> None:
    for i in range(cuda.grid(1), img.size, cuda.gridsize(1)):
        x = i % width
        y = i // width
        img[i] = 0.5 + 0.5 * math.sin(0.1 * x + 0.2 * y + t)


class DoubleBufferedRenderer:
    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.stream = nx.stream()
        self.image = nx.device_array(width * height, np.float32)
        self._bufs: list[Host] = [nx.pinned_array(width * height, np.float32) for _ in range(2)]
        self._back = 1
        self._pending: nx.Transfer[Host] | None = None
        self.frames_presented = 0

    @property
    def front(self) -> Host:
        return self._bufs[self._back]

    def render(self, t: float) -> None:
        assert self._pending is None, "present() the previous frame first"
        self.stream.launch(shade, 4, 64, self.image, self.width, t)
        self._pending = self.stream.download(self.image, into=self._bufs[self._back])

    def present(self) -> None:
        if self._pending is None:
            return
        self._bufs[self._back] = self._pending.wait()
        self._pending = None
        self._back ^= 1
        self.frames_presented += 1

    def close(self) -> None:
        self.present()
        self.stream.close()


def reference(width: int, height: int, t: float) -> float:
    i = np.arange(width * height)
    x, y = i % width, i // width
    return float((0.5 + 0.5 * np.sin(0.1 * x + 0.2 * y + t)).mean())


def main() -> None:
    width, height, frames = 40, 30, 5
    r = DoubleBufferedRenderer(width, height)
    shown: list[float] = []
    for k in range(frames):
        r.render(0.25 * k)
        if k > 0:  # the display shows the frame presented last time
            shown.append(float(r.front.read().mean(dtype=np.float64)))  # E: use-after-transfer
        r.present()
    shown.append(float(r.front.read().mean(dtype=np.float64)))
    r.close()
    assert r.frames_presented == frames
    expect = [reference(width, height, 0.25 * k) for k in range(frames)]
    assert np.allclose(shown, expect, atol=1e-5), (shown, expect)
    print("double_buffer_render: ok", [round(v, 4) for v in shown])


if __name__ == "__main__":
    main()
