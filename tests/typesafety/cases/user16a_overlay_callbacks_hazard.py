# RUN: raises BorrowError via-call
# XFAIL: miss (line 42): auto_exposure calls annotate() from inside show()'s lend block, writing the lent owner
# Planted bug: auto_exposure calls annotate() from inside show()'s lend block, writing the lent owner
"""A viewer that hands each finished frame to display callbacks (a histogram panel, an
auto-exposure overlay) through a read-only lend of its pinned frame buffer.

Callbacks may ask for an annotation (a marker burnt into the frame); the viewer applies
requested annotations after the callbacks have returned, when the buffer is no longer
lent.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
LentHost = nx.PinnedArray[nx.Lent, np.float32]


@cuda.jit
def render(img: Any, k: int) -> None:
    for i in range(cuda.grid(1), img.size, cuda.gridsize(1)):
        img[i] = ((i + k) % 10) / 10.0


class Viewer:
    def __init__(self, n: int) -> None:
        self.stream = nx.stream()
        self.dev = nx.device_array(n, np.float32)
        self.frame: Host = nx.pinned_array(n, np.float32)
        self.callbacks: list[Callable[[Viewer, LentHost], None]] = []
        self.requests: list[tuple[int, float]] = []
        self.saved: list[np.ndarray[Any, np.dtype[np.float32]]] = []

    def annotate(self, index: int, value: float) -> None:
        with self.frame.write() as a:  # E: lend-escape
            a[index] = value

    def request_annotation(self, index: int, value: float) -> None:
        self.requests.append((index, value))

    def show(self, k: int) -> None:
        self.stream.launch(render, 2, 64, self.dev, k)
        self.frame = self.stream.download(self.dev, into=self.frame).wait()
        with self.frame.lend() as view:
            for cb in self.callbacks:
                cb(self, view)
        for index, value in self.requests:
            self.annotate(index, value)
        self.requests.clear()
        self.saved.append(self.frame.read().copy())

    def close(self) -> None:
        self.stream.close()


histograms: list[list[int]] = []


def histogram_panel(viewer: Viewer, view: LentHost) -> None:
    counts, _ = np.histogram(view.read(), bins=5, range=(0.0, 1.0))
    histograms.append([int(c) for c in counts])


def auto_exposure(viewer: Viewer, view: LentHost) -> None:
    mean = float(view.read().mean(dtype=np.float64))
    if mean > 0.44:
        viewer.annotate(0, -1.0)


def main() -> None:
    n, frames = 200, 3
    v = Viewer(n)
    v.callbacks += [histogram_panel, auto_exposure]
    for k in range(frames):
        v.show(k)
    v.close()
    assert len(histograms) == frames
    assert all(sum(h) == n for h in histograms)
    for k, img in enumerate(v.saved):
        expect = ((np.arange(n) + k) % 10 / 10.0).astype(np.float32)
        expect[0] = -1.0
        assert np.allclose(img, expect), k
    print("overlay_callbacks: ok", histograms[0])


if __name__ == "__main__":
    main()
