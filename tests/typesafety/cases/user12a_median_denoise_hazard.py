# Runtime: raises BorrowError (at line 69; the checker reports the escape at line 65, where the lent view leaves its block)
# Planted bug: the cached_property `preview` returns the lent view from inside its `with image.lend()` block, and `thumbnail` later reads that expired lent handle.
"""Image denoising job with a cached preview thumbnail.

A noisy grayscale tile is staged in pinned memory, uploaded and smoothed with a 3x3
box filter kernel; the result comes back into the same buffer. The job exposes a
``thumbnail`` (functools.cached_property) taken through a lent view of the image.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host2D = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def box3(src: Any, dst: Any) -> None:
    y, x = cuda.grid(2)
    h, w = src.shape
    if y < h and x < w:
        acc = 0.0
        cnt = 0
        for dy in range(-1, 2):
            for dx in range(-1, 2):
                yy, xx = y + dy, x + dx
                if 0 <= yy < h and 0 <= xx < w:
                    acc += src[yy, xx]
                    cnt += 1
        dst[y, x] = acc / cnt


def box3_ref(img: NDArray[np.float32]) -> NDArray[np.float32]:
    padded = np.pad(img.astype(np.float64), 1)
    ones = np.pad(np.ones_like(img, dtype=np.float64), 1)
    h, w = img.shape
    acc = sum(padded[1 + dy : 1 + dy + h, 1 + dx : 1 + dx + w] for dy in (-1, 0, 1) for dx in (-1, 0, 1))
    cnt = sum(ones[1 + dy : 1 + dy + h, 1 + dx : 1 + dx + w] for dy in (-1, 0, 1) for dx in (-1, 0, 1))
    return (acc / cnt).astype(np.float32)  # type: ignore[union-attr]


class DenoiseJob:
    def __init__(self, noisy: NDArray[np.float32]) -> None:
        self.shape = noisy.shape
        self.image: Host2D = nx.pinned_copy(noisy)
        self.stream = nx.stream()
        self.src = nx.device_array(self.shape, np.float32)
        self.dst = nx.device_array(self.shape, np.float32)

    @cached_property
    def preview_mean(self) -> float:
        with self.image.lend() as view:
            return float(view.read().mean())

    @cached_property
    def preview(self) -> nx.PinnedArray[nx.Lent, np.float32]:
        with self.image.lend() as view:
            return view  # E: lend-escape

    @cached_property
    def thumbnail(self) -> NDArray[np.float32]:
        thumb: NDArray[np.float32] = self.preview.read()[::4, ::4].copy()
        return thumb

    def run(self) -> NDArray[np.float32]:
        up = self.stream.upload(self.image, to=self.src)
        grid = ((self.shape[0] + 7) // 8, (self.shape[1] + 7) // 8)
        self.stream.launch(box3, grid, (8, 8), self.src, self.dst)
        self.image = up.wait()
        self.image = self.stream.download(self.dst, into=self.image).wait()
        result: NDArray[np.float32] = self.image.read().copy()
        return result

    def close(self) -> None:
        self.image.free()
        self.stream.close()


def main() -> None:
    rng = np.random.default_rng(11)
    clean = np.tile(np.linspace(0.0, 1.0, 32, dtype=np.float32), (32, 1))
    noisy = (clean + 0.1 * rng.standard_normal(clean.shape)).astype(np.float32)
    job = DenoiseJob(noisy)
    before = job.preview_mean
    thumb_before = job.thumbnail
    out = job.run()
    del job.thumbnail  # invalidate the cache: the image now holds the denoised tile
    thumb_after = job.thumbnail
    job.close()
    assert np.allclose(out, box3_ref(noisy), atol=1e-5), "box filter mismatch"
    assert thumb_before.shape == thumb_after.shape == (8, 8)
    assert abs(before - float(noisy.mean())) < 1e-5
    print(f"median_denoise: noise std {float(noisy.std()):.3f} -> {float(out.std()):.3f}")


if __name__ == "__main__":
    main()
