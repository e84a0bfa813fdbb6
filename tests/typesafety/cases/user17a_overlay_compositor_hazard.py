# RUN: raises UseAfterTransferError via-call
# Planted bug: writes the mapped mask while the blend kernel may still read it (mapping not waited yet)
"""Compositing an animated overlay (a moving spotlight) over video frames.

The overlay's alpha mask lives in mapped (zero-copy) host memory: the host animates it
between frames and the blend kernel reads it straight from host memory through the
mapping. The host may touch the mask only when the mapping has been waited.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Mask = nx.MappedArray[nx.Owned, np.float32]


@nx.kernel(reads=["frame", "alpha"], writes=["out"])
@cuda.jit
def blend(frame: Any, alpha: Any, out: Any, colour: Any) -> None:
    for i in range(cuda.grid(1), frame.size, cuda.gridsize(1)):
        a = alpha[i]
        out[i] = frame[i] * (1.0 - a) + colour * a


def grid_for(n: int) -> tuple[int, int]:
    return max(1, min(64, n // 256)), 64


def spotlight(frame: int, width: int, height: int) -> NDArray[np.float32]:
    yy, xx = np.mgrid[0:height, 0:width]
    cx, cy = (3 * frame) % width, height // 2
    r2 = (xx - cx) ** 2 + (yy - cy) ** 2
    out: NDArray[np.float32] = np.clip(1.0 - r2 / 16.0, 0.0, 1.0).astype(np.float32).reshape(-1)
    return out


def draw_spotlight(mask: Mask, frame: int, width: int, height: int) -> None:
    with mask.write() as a:
        a[:] = spotlight(frame, width, height)


class OverlayCompositor:
    def __init__(self, width: int, height: int, colour: float = 1.0) -> None:
        n = width * height
        self.width, self.height = width, height
        self.colour = np.float32(colour)
        self.stream = nx.stream()
        self.alpha: Mask = nx.mapped_array(n, np.float32)
        self.mapping: nx.Mapping[np.float32] | None = None
        self.host: Host = nx.pinned_array(n, np.float32)
        self.dev_frame = nx.device_array(n, np.float32)
        self.dev_out = nx.device_array(n, np.float32)
        draw_spotlight(self.alpha, 0, width, height)

    def _begin(self) -> nx.DeviceArray[nx.Owned, np.float32]:
        self.mapping = self.stream.map(self.alpha)
        return self.mapping.device

    def _end(self) -> None:
        assert self.mapping is not None
        self.alpha = self.mapping.wait()
        self.mapping = None

    def composite(self, index: int, frame: NDArray[np.float32]) -> NDArray[np.float32]:
        alpha_dev = self._begin()
        with self.host.write() as a:
            a[:] = frame
        up = self.stream.upload(self.host, to=self.dev_frame)
        blocks, threads = grid_for(frame.size)
        self.stream.launch(blend, blocks, threads, self.dev_frame, alpha_dev, self.dev_out, self.colour)
        down = self.stream.download(self.dev_out, into=up)
        draw_spotlight(self.alpha, index + 1, self.width, self.height)  # E: use-after-transfer
        self.host = down.wait()
        self._end()
        return self.host.read().copy()

    def close(self) -> None:
        if self.mapping is not None:
            self._end()
        self.stream.close()


def main(frames: int = 5, width: int = 20, height: int = 10) -> list[float]:
    rng = np.random.default_rng(21)
    clip = [rng.random(width * height, dtype=np.float32) * np.float32(0.5) for _ in range(frames)]
    comp = OverlayCompositor(width, height)
    outputs = [comp.composite(i, f) for i, f in enumerate(clip)]
    comp.close()

    for i, (f, got) in enumerate(zip(clip, outputs)):
        a = spotlight(i, width, height)
        ref = f * (np.float32(1.0) - a) + np.float32(1.0) * a
        assert np.allclose(got, ref, atol=1e-6), f"frame {i}"
    return [float(o.mean()) for o in outputs]


if __name__ == "__main__":
    result = main()
    print(f"overlay_compositor: {len(result)} frames composited")
