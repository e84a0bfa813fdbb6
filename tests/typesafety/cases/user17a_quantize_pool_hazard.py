# RUN: raises UseAfterTransferError via-call
# Planted bug: last_frame aliases an output buffer already given back to the pool
"""A toy intra-frame encoder: quantize each frame on the GPU, with pooled pinned buffers.

Staging buffers come from one ``PinnedPool`` and go back to it with their uploads
(``recycle``); output buffers come from a second pool and are given back once the
encoder has consumed them. Up to ``depth`` frames are in flight.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def quantize(src: Any, dst: Any, levels: Any) -> None:
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        v = src[i]
        if v < 0.0:
            v = 0.0
        if v > 1.0:
            v = 1.0
        dst[i] = int(v * levels + 0.5) / levels


def grid_for(n: int) -> tuple[int, int]:
    return max(1, min(64, n // 256)), 64


def reference(frame: NDArray[np.float32], levels: float) -> NDArray[np.float32]:
    v = np.clip(frame, 0.0, 1.0)
    out: NDArray[np.float32] = (np.floor(v * np.float32(levels) + np.float32(0.5)) / np.float32(levels)).astype(np.float32)
    return out


class QuantizingEncoder:
    def __init__(self, pixels: int, levels: int = 15, depth: int = 2) -> None:
        self.levels = np.float32(levels)
        self.depth = depth
        self.stream = nx.stream()
        self.staging: nx.PinnedPool[np.float32] = nx.PinnedPool(depth, pixels, np.float32)
        self.outputs: nx.PinnedPool[np.float32] = nx.PinnedPool(depth, pixels, np.float32)
        self.dev_in = nx.device_array(pixels, np.float32)
        self.dev_out = nx.device_array(pixels, np.float32)
        self.pending: deque[tuple[int, nx.Transfer[Host]]] = deque()
        self.encoded: dict[int, NDArray[np.float32]] = {}
        self.last_frame: Host | None = None

    def encode(self, index: int, frame: NDArray[np.float32]) -> None:
        if len(self.pending) >= self.depth:
            self.finish_one()
        buf = self.staging.take()
        with buf.write() as a:
            a[:] = frame
        self.staging.recycle(self.stream.upload(buf, to=self.dev_in))
        blocks, threads = grid_for(frame.size)
        self.stream.launch(quantize, blocks, threads, self.dev_in, self.dev_out, self.levels)
        out = self.outputs.take()
        self.pending.append((index, self.stream.download(self.dev_out, into=out)))

    def finish_one(self) -> None:
        index, down = self.pending.popleft()
        out = down.wait()
        codes = out.read()
        self.encoded[index] = (codes * self.levels).round().astype(np.float32)
        self.last_frame = out  # the newest output, for stats()
        self.outputs.give(out)

    def flush(self) -> None:
        while self.pending:
            self.finish_one()
        self.staging.drain()

    def stats(self) -> dict[str, float]:
        assert self.last_frame is not None
        peak = float(self.last_frame.read().max())
        return {"frames": float(len(self.encoded)), "last_peak": peak}

    def close(self) -> None:
        self.flush()
        self.stream.close()


def main(frames: int = 6, pixels: int = 256) -> dict[str, float]:
    rng = np.random.default_rng(11)
    clip = [rng.normal(0.5, 0.3, pixels).astype(np.float32) for _ in range(frames)]
    enc = QuantizingEncoder(pixels)
    for i, frame in enumerate(clip):
        enc.encode(i, frame)
    enc.flush()
    stats = enc.stats()  # E: use-after-transfer
    enc.close()

    assert stats["frames"] == frames, stats
    assert stats["last_peak"] == float(reference(clip[-1], 15).max()), stats
    for i, frame in enumerate(clip):
        assert np.array_equal(enc.encoded[i] / np.float32(15), reference(frame, 15)), i
    return stats


if __name__ == "__main__":
    result = main()
    print(f"quantize_pool: {int(result['frames'])} frames, last peak {result['last_peak']:.3f}")
