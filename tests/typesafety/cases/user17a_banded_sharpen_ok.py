# RUN: ok
"""Unsharp masking of one big frame, split into horizontal bands on four streams.

The pinned frame and its device buffers are split into owned row bands (no copy);
each band goes up, is sharpened along its rows and comes back on its own stream,
chaining the download onto the upload. ``gather`` takes every band back and joins
the frame.
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
def sharpen_rows(src: Any, dst: Any, amount: Any) -> None:
    """``dst = src + amount * (src - blur3(src))`` along each row."""
    y, x = cuda.grid(2)
    h, w = src.shape
    if y < h and x < w:
        left = src[y, x - 1] if x > 0 else src[y, x]
        right = src[y, x + 1] if x < w - 1 else src[y, x]
        blur = (left + src[y, x] + right) / 3.0
        dst[y, x] = src[y, x] + amount * (src[y, x] - blur)


def reference(img: NDArray[np.float32], amount: float) -> NDArray[np.float32]:
    p = np.pad(img.astype(np.float64), ((0, 0), (1, 1)), mode="edge")
    blur = (p[:, :-2] + p[:, 1:-1] + p[:, 2:]) / 3.0
    out: NDArray[np.float32] = (img + amount * (img - blur)).astype(np.float32)
    return out


class BandedSharpen:
    def __init__(self, height: int, width: int, bands: int = 4, amount: float = 0.7) -> None:
        self.amount = np.float32(amount)
        self.streams = [nx.stream() for _ in range(bands)]
        frame = nx.pinned_array((height, width), np.float32)
        self.bands: list[Host] = nx.split(frame, bands)
        self.d_in: list[Dev] = nx.split(nx.device_array((height, width), np.float32), bands)
        self.d_out: list[Dev] = nx.split(nx.device_array((height, width), np.float32), bands)
        self.uploads: dict[int, nx.Transfer[Host]] = {}
        self.downloads: dict[int, nx.Transfer[Host]] = {}

    def load(self, image: NDArray[np.float32]) -> None:
        top = 0
        for band in self.bands:
            rows = band.shape[0]
            with band.write() as a:
                a[:] = image[top : top + rows]
            top += rows

    def _start_band(self, i: int) -> None:
        s = self.streams[i]
        self.uploads[i] = s.upload(self.bands[i], to=self.d_in[i])
        h, w = self.d_in[i].shape
        s.launch(sharpen_rows, ((h + 7) // 8, (w + 7) // 8), (8, 8),
                 self.d_in[i], self.d_out[i], self.amount)

    def _finish_band(self, i: int) -> None:
        s = self.streams[i]
        self.downloads[i] = s.download(self.d_out[i], into=self.uploads.pop(i))

    def run(self) -> None:
        for i in range(len(self.bands)):
            self._start_band(i)
        for i in range(len(self.bands)):
            self._finish_band(i)

    def gather(self) -> NDArray[np.float32]:
        for i in range(len(self.bands)):
            self.bands[i] = self.downloads.pop(i).wait()
        frame = nx.join(self.bands)
        result = frame.read().copy()
        self.bands = nx.split(frame, len(self.streams))
        return result

    def close(self) -> None:
        assert not self.uploads and not self.downloads
        for s in self.streams:
            s.close()


def main(height: int = 30, width: int = 16) -> NDArray[np.float32]:
    rng = np.random.default_rng(13)
    work = BandedSharpen(height, width)
    outputs: list[NDArray[np.float32]] = []
    images = [rng.random((height, width), dtype=np.float32) for _ in range(2)]
    for img in images:
        work.load(img)
        work.run()
        outputs.append(work.gather())
    work.close()

    for img, got in zip(images, outputs):
        assert np.allclose(got, reference(img, 0.7), atol=1e-5), "sharpen mismatch"
    return outputs[-1]


if __name__ == "__main__":
    result = main()
    print(f"banded_sharpen: {result.shape[0]}x{result.shape[1]} frame sharpened in bands")
