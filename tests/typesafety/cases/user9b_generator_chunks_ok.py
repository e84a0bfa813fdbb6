# RUN: ok
"""Chunked histogramming of a large sample: a generator splits the pinned sample into
owned chunks (tracking their checksum), the consumer uploads each chunk and bins it
on the device into a global histogram."""
from __future__ import annotations

from typing import Any, Iterator

import numpy as np
from numba import cuda

import numbaxfer as nx

BINS = 16
CHUNK = 100
F32, I32 = np.float32, np.int32
Part = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def bin_values(x: Any, hist: Any, lo: float, width: float) -> None:
    i = cuda.grid(1)
    if i < x.size:
        b = int((x[i] - lo) / width)
        if 0 <= b < hist.size:
            cuda.atomic.add(hist, b, 1)


class Chunker:
    def __init__(self, sample: nx.PinnedArray[nx.Owned, np.float32]) -> None:
        self.parts = nx.split(sample, chunk=CHUNK)
        self.checksum = 0.0

    def __iter__(self) -> Iterator[tuple[int, Part]]:
        for k, part in enumerate(self.parts):
            self.checksum += float(part.read().sum())
            yield k, part


def main(n: int = 7 * CHUNK + 37) -> None:
    rng = np.random.default_rng(9)
    data = rng.uniform(0.0, 4.0, n).astype(F32)
    s = nx.stream()
    hist_d = nx.device_array(BINS, I32)
    zero = s.upload(nx.pinned_copy(np.zeros(BINS, I32)), to=hist_d)
    chunker = Chunker(nx.pinned_copy(data))
    windows = {CHUNK: nx.device_array(CHUNK, F32), n % CHUNK: nx.device_array(n % CHUNK, F32)}
    ups: list[nx.Transfer[Part]] = []
    for k, part in chunker:
        dev = windows[part.size]
        ups.append(s.upload(part, to=dev))
        s.launch(bin_values, 2, 64, dev, hist_d, 0.0, 4.0 / BINS)
    back = [t.wait() for t in ups]
    sample = nx.join(back)
    hist = s.download(hist_d, into=zero.wait()).wait()
    counts = hist.read()
    print("histogram:", counts.tolist())
    assert int(counts.sum()) == n
    assert abs(chunker.checksum - float(sample.read().sum())) < 1e-2
    s.close()


if __name__ == "__main__":
    main()
