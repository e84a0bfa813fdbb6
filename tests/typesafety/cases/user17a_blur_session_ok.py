# RUN: ok
"""A batch blur service used as a context manager.

``submit`` sends an image up, runs a separable 3-tap box blur on the device and chains
the download back into the same pinned buffer; ``results`` completes the batch in
submission order. ``__exit__`` completes anything still pending (an error part-way
through a batch) before closing the stream.
"""

from __future__ import annotations

from types import TracebackType
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def blur_rows(src: Any, dst: Any) -> None:
    y, x = cuda.grid(2)
    h, w = src.shape
    if y < h and x < w:
        left = src[y, x - 1] if x > 0 else src[y, x]
        right = src[y, x + 1] if x < w - 1 else src[y, x]
        dst[y, x] = (left + src[y, x] + right) / 3.0


@cuda.jit
def blur_cols(src: Any, dst: Any) -> None:
    y, x = cuda.grid(2)
    h, w = src.shape
    if y < h and x < w:
        up = src[y - 1, x] if y > 0 else src[y, x]
        down = src[y + 1, x] if y < h - 1 else src[y, x]
        dst[y, x] = (up + src[y, x] + down) / 3.0


def reference_blur(img: NDArray[np.float32]) -> NDArray[np.float32]:
    p = np.pad(img.astype(np.float64), 1, mode="edge")
    rows = (p[:, :-2] + p[:, 1:-1] + p[:, 2:]) / 3.0
    cols = (rows[:-2] + rows[1:-1] + rows[2:]) / 3.0
    out: NDArray[np.float32] = cols.astype(np.float32)
    return out


class BlurSession:
    def __init__(self, shape: tuple[int, int]) -> None:
        self.shape = shape
        self.stream = nx.stream()
        self.dev_a = nx.device_array(shape, np.float32)
        self.dev_b = nx.device_array(shape, np.float32)
        self.pending: list[nx.Transfer[Host]] = []
        self.grid = ((shape[0] + 7) // 8, (shape[1] + 7) // 8)

    def __enter__(self) -> BlurSession:
        return self

    def submit(self, image: NDArray[np.float32]) -> None:
        if image.shape != self.shape:
            raise ValueError(f"image {image.shape} does not fit session {self.shape}")
        host = nx.pinned_copy(image)
        up = self.stream.upload(host, to=self.dev_a)
        self.stream.launch(blur_rows, self.grid, (8, 8), self.dev_a, self.dev_b)
        self.stream.launch(blur_cols, self.grid, (8, 8), self.dev_b, self.dev_a)
        self.pending.append(self.stream.download(self.dev_a, into=up))

    def results(self) -> list[NDArray[np.float32]]:
        """Complete the batch so far, oldest first."""
        out: list[NDArray[np.float32]] = []
        while self.pending:
            host = self.pending.pop(0).wait()
            out.append(host.read().copy())
            host.free()
        return out

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        for leftover in self.pending:  # only after an error part-way through a batch
            leftover.wait().free()
        self.pending.clear()
        self.stream.close()


def main(count: int = 4, shape: tuple[int, int] = (12, 16)) -> list[float]:
    rng = np.random.default_rng(5)
    images = [rng.random(shape, dtype=np.float32) for _ in range(count)]
    with BlurSession(shape) as session:
        for img in images:
            session.submit(img)
        blurred = session.results()

    assert len(blurred) == count
    for img, got in zip(images, blurred):
        assert np.allclose(got, reference_blur(img), atol=1e-5), "blur mismatch"
    return [float(b.mean()) for b in blurred]


if __name__ == "__main__":
    result = main()
    print(f"blur_session: {len(result)} images blurred")
