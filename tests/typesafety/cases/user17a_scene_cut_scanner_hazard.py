# RUN: raises AssertionError via-call
# XFAIL: miss (line 74): over budget, the record's signature download is abandoned without wait()
# Planted bug: over budget, the record's signature download is abandoned without wait()
"""Scene-cut detection over a clip with a generator of pending signature downloads.

``SceneScanner.scan`` uploads each frame, computes a coarse block-mean signature on
the device and yields a record holding the signature's download; the consumer
completes each record, compares signatures and stops at the first cut (or when its
frame budget runs out). Signature buffers come from a small ``PinnedPool``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@nx.kernel(reads=["frame"], writes=["sig"])
@cuda.jit
def block_means(frame: Any, sig: Any) -> None:
    b = cuda.grid(1)
    if b < sig.size:
        seg = frame.size // sig.size
        acc = 0.0
        for i in range(b * seg, (b + 1) * seg):
            acc += frame[i]
        sig[b] = acc / seg


@dataclass(frozen=True)
class PendingSignature:
    index: int
    download: nx.Transfer[Host]


class SceneScanner:
    def __init__(self, pixels: int, blocks: int = 8) -> None:
        self.blocks = blocks
        self.stream = nx.stream()
        self.staging: Host = nx.pinned_array(pixels, np.float32)
        self.dev_frame = nx.device_array(pixels, np.float32)
        self.dev_sig = nx.device_array(blocks, np.float32)
        self.signatures: nx.PinnedPool[np.float32] = nx.PinnedPool(2, blocks, np.float32)

    def scan(self, clip: Sequence[NDArray[np.float32]]) -> Iterator[PendingSignature]:
        for i, frame in enumerate(clip):
            with self.staging.write() as a:
                a[:] = frame
            up = self.stream.upload(self.staging, to=self.dev_frame)
            self.stream.launch(block_means, 1, 32, self.dev_frame, self.dev_sig)
            down = self.stream.download(self.dev_sig, into=self.signatures.take())
            self.staging = up.wait()
            yield PendingSignature(i, down)

    def close(self) -> None:
        self.stream.close()


def find_cut(scanner: SceneScanner, clip: Sequence[NDArray[np.float32]],
             threshold: float, budget: int) -> int | None:
    """Index of the first frame whose signature jumps by more than ``threshold``."""
    previous: NDArray[np.float32] | None = None
    for record in scanner.scan(clip):
        if record.index >= budget:
            return None  # E: use-after-transfer
        buf = record.download.wait()
        signature = buf.read().copy()
        scanner.signatures.give(buf)
        if previous is not None and float(np.abs(signature - previous).max()) > threshold:
            return record.index
        previous = signature
    return None


def make_clip(frames: int, pixels: int, cut: int) -> list[NDArray[np.float32]]:
    rng = np.random.default_rng(29)
    clip = []
    for i in range(frames):
        base = 0.2 if i < cut else 0.7
        clip.append((base + 0.01 * rng.random(pixels)).astype(np.float32))
    return clip


def main(frames: int = 9, pixels: int = 256) -> tuple[int | None, int | None]:
    clip = make_clip(frames, pixels, cut=5)
    scanner = SceneScanner(pixels)
    found = find_cut(scanner, clip, threshold=0.2, budget=frames)
    short = find_cut(scanner, clip, threshold=0.2, budget=3)
    scanner.close()
    assert found == 5, found
    assert short is None, short
    assert len(scanner.signatures) == 2, "every signature buffer came back"
    return found, short


if __name__ == "__main__":
    result = main()
    print(f"scene_cut_scanner: cut at frame {result[0]}, none within a 3-frame budget")
