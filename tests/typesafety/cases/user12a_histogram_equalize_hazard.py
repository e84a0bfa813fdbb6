# RUN: raises BorrowError
# Planted bug: run() starts uploading the frame while still iterating band_histograms(), whose generator holds the frame lent until it is exhausted.
"""Histogram equalisation of a grayscale frame, histogram gathered tile by tile.

A generator method lends the pinned frame and yields its row bands' histograms (the
lend stays open while the generator runs). The equalisation LUT built from the summed
histogram is uploaded with the frame, a kernel maps every pixel through it, and the
result is downloaded back into the frame buffer.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Frame = nx.PinnedArray[nx.Owned, np.uint8]


@cuda.jit
def apply_lut(img: Any, lut: Any) -> None:
    y, x = cuda.grid(2)
    if y < img.shape[0] and x < img.shape[1]:
        img[y, x] = lut[img[y, x]]


def equalize_lut(hist: NDArray[np.int64]) -> NDArray[np.uint8]:
    cdf = np.cumsum(hist)
    lo = cdf[np.nonzero(cdf)[0][0]]
    lut = np.round((cdf - lo) / max(int(cdf[-1] - lo), 1) * 255.0)
    return np.clip(lut, 0, 255).astype(np.uint8)  # type: ignore[no-any-return]


class Equalizer:
    def __init__(self, frame: NDArray[np.uint8], band: int) -> None:
        self.shape = frame.shape
        self.band = band
        self.frame: Frame = nx.pinned_copy(frame)
        self.stream = nx.stream()
        self.d_img = nx.device_array(frame.shape, np.uint8)
        self.d_lut = nx.device_array(256, np.uint8)

    def band_histograms(self) -> Iterator[NDArray[np.int64]]:
        with self.frame.lend() as view:
            data = view.read()
            for y0 in range(0, self.shape[0], self.band):
                yield np.bincount(data[y0 : y0 + self.band].ravel(), minlength=256)

    def run(self) -> NDArray[np.uint8]:
        total = np.zeros(256, dtype=np.int64)
        bands = self.band_histograms()
        total += next(bands)
        up = self.stream.upload(self.frame, to=self.d_img)  # E: owner-borrowed
        for hist in bands:
            total += hist
        lut = nx.pinned_copy(equalize_lut(total))
        lut_up = self.stream.upload(lut, to=self.d_lut)
        grid = ((self.shape[0] + 7) // 8, (self.shape[1] + 7) // 8)
        self.stream.launch(apply_lut, grid, (8, 8), self.d_img, self.d_lut)
        self.frame = self.stream.download(self.d_img, into=up).wait()
        lut_up.wait().free()
        out: NDArray[np.uint8] = self.frame.read().copy()
        return out

    def close(self) -> None:
        self.frame.free()
        self.stream.close()


def main() -> None:
    rng = np.random.default_rng(23)
    frame = np.clip(rng.normal(90, 12, (32, 48)), 0, 255).astype(np.uint8)
    eq = Equalizer(frame, band=8)
    out = eq.run()
    eq.close()
    ref = equalize_lut(np.bincount(frame.ravel(), minlength=256))[frame]
    assert np.array_equal(out, ref), "equalisation mismatch"
    print(f"histogram_equalize: range {int(frame.min())}-{int(frame.max())} -> {int(out.min())}-{int(out.max())}")


if __name__ == "__main__":
    main()
