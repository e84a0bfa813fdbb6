# RUN: ok
"""Colour grading a clip through a 256-entry LUT, with a per-frame callback.

The grader uploads 8-bit frames, maps them through a device-resident LUT (lent to the
kernel as a read) and downloads float frames. Each finished frame is shown to a
callback as a *lent* pinned handle, valid for the call only; the keyframe collector
keeps what it needs as plain numpy copies.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Frame8 = nx.PinnedArray[nx.Owned, np.uint8]
FrameF = nx.PinnedArray[nx.Owned, np.float32]
LentFrame = nx.PinnedArray[nx.Lent, np.float32]


@nx.kernel(reads=["src", "lut"], writes=["dst"])
@cuda.jit
def apply_lut(src: Any, lut: Any, dst: Any) -> None:
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        dst[i] = lut[src[i]]


def grid_for(n: int) -> tuple[int, int]:
    return max(1, min(64, n // 256)), 64


def filmic_lut(contrast: float) -> NDArray[np.float32]:
    x = np.arange(256, dtype=np.float32) / np.float32(255.0)
    y = 1.0 / (1.0 + np.exp(-contrast * (x - 0.5)))
    lo, hi = y[0], y[-1]
    out: NDArray[np.float32] = ((y - lo) / (hi - lo)).astype(np.float32)
    return out


class Grader:
    def __init__(self, pixels: int, lut: NDArray[np.float32]) -> None:
        self.stream = nx.stream()
        self.dev_lut = nx.device_array(256, np.float32)
        self.stream.upload_staged(lut, to=self.dev_lut)
        self.src: Frame8 = nx.pinned_array(pixels, np.uint8)
        self.out: FrameF = nx.pinned_array(pixels, np.float32)
        self.dev_src = nx.device_array(pixels, np.uint8)
        self.dev_out = nx.device_array(pixels, np.float32)

    def grade(self, index: int, frame: NDArray[np.uint8],
              on_graded: Callable[[int, LentFrame], None]) -> None:
        with self.src.write() as a:
            a[:] = frame
        up = self.stream.upload(self.src, to=self.dev_src)
        blocks, threads = grid_for(frame.size)
        with self.dev_lut.lend() as lut:
            self.stream.launch(apply_lut, blocks, threads, self.dev_src, lut, self.dev_out)
        down = self.stream.download(self.dev_out, into=self.out)
        self.src = up.wait()
        self.out = down.wait()
        with self.out.lend() as view:
            on_graded(index, view)

    def close(self) -> None:
        self.stream.close()


class KeyframeCollector:
    """Keeps every ``every``-th graded frame and the running mean brightness."""

    def __init__(self, every: int) -> None:
        self.every = every
        self.keyframes: dict[int, NDArray[np.float32]] = {}
        self.means: list[float] = []

    def __call__(self, index: int, view: LentFrame) -> None:
        data = view.read()
        self.means.append(float(data.mean(dtype=np.float64)))
        if index % self.every == 0:
            self.keyframes[index] = data.copy()  # the lend ends with this call

    def summary(self) -> dict[int, float]:
        return {i: float(k.max()) for i, k in sorted(self.keyframes.items())}


def main(frames: int = 7, pixels: int = 512) -> dict[int, float]:
    rng = np.random.default_rng(3)
    clip = [rng.integers(0, 256, pixels, dtype=np.uint8) for _ in range(frames)]
    lut = filmic_lut(6.0)
    grader = Grader(pixels, lut)
    keep = KeyframeCollector(every=3)
    for i, frame in enumerate(clip):
        grader.grade(i, frame, keep)
    grader.close()

    peaks = keep.summary()
    assert sorted(peaks) == [0, 3, 6], peaks
    for i, peak in peaks.items():
        assert peak == float(lut[clip[i]].max()), (i, peak)
    for i, m in enumerate(keep.means):
        assert abs(m - float(lut[clip[i]].mean(dtype=np.float64))) < 1e-5
    return peaks


if __name__ == "__main__":
    result = main()
    print(f"lut_grading: keyframes {sorted(result)} kept")
