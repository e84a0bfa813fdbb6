# RUN: ok
"""Ingesting camera captures that arrive as ordinary numpy arrays, without a staging
copy: each capture is pinned in place for the duration of its round trip (upload, a
denoise kernel, download back into the same memory).

`Ingestor.ingest()` opens the `nx.pinned` block; `Ingestor.audit()` later re-checks the
last capture's checksum for the log.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def denoise(src: Any, dst: Any, floor: float) -> None:
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        v = src[i]
        dst[i] = v if v > floor else 0.0


class Ingestor:
    def __init__(self, n: int, floor: float) -> None:
        self.stream = nx.stream()
        self.d_in = nx.device_array(n, np.float32)
        self.d_out = nx.device_array(n, np.float32)
        self.floor = floor
        self.last_checksum = 0.0
        self.count = 0
        self.log: list[str] = []

    def ingest(self, capture: NDArray[np.float32]) -> float:
        with nx.pinned(capture) as h:
            up = self.stream.upload(h, to=self.d_in)
            self.stream.launch(denoise, 2, 64, self.d_in, self.d_out, self.floor)
            h = self.stream.download(self.d_out, into=up).wait()
            self.last_checksum = float(h.read().sum(dtype=np.float64))
        self.count += 1
        return self.last_checksum

    def audit(self) -> None:
        self.log.append(f"capture {self.count}: checksum {self.last_checksum:.3f}")

    def close(self) -> None:
        self.stream.close()


def main() -> None:
    n = 640
    rng = np.random.default_rng(2)
    captures = [rng.random(n).astype(np.float32) for _ in range(3)]
    originals = [c.copy() for c in captures]
    ing = Ingestor(n, floor=0.2)
    sums = []
    for c in captures:
        sums.append(ing.ingest(c))
        ing.audit()
    ing.close()
    for c, o, total in zip(captures, originals, sums):
        expect = np.where(o > np.float32(0.2), o, np.float32(0.0))
        assert np.array_equal(c, expect)  # denoised in place
        assert abs(total - float(expect.sum(dtype=np.float64))) < 1e-3
    assert len(ing.log) == 3
    print("inplace_ingest: ok", ing.log[-1])


if __name__ == "__main__":
    main()
