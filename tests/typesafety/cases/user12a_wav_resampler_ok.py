# RUN: ok
"""Streaming 2x WAV resampler with a silence gate.

Chunks of a PCM stream are staged into fresh pinned copies by a helper that returns
the upload; a linear-interpolation kernel doubles the sample rate on the device and
the result is downloaded into a reusable output buffer. Silent chunks still refresh
the device input (so the kernel's edge sample stays right) but produce zeros.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def upsample2(x: Any, y: Any) -> None:
    n = x.size
    for i in range(cuda.grid(1), n, cuda.gridsize(1)):
        y[2 * i] = x[i]
        nxt = x[i + 1] if i + 1 < n else x[i]
        y[2 * i + 1] = 0.5 * (x[i] + nxt)


def upsample2_ref(x: NDArray[np.float32]) -> NDArray[np.float32]:
    y = np.empty(2 * x.size, dtype=np.float32)
    y[0::2] = x
    y[1::2] = 0.5 * (x + np.append(x[1:], x[-1]))
    return y


class Resampler:
    def __init__(self, chunk: int, gate: float) -> None:
        self.chunk, self.gate = chunk, gate
        self.stream = nx.stream()
        self.d_in = nx.device_array(chunk, np.float32)
        self.d_out = nx.device_array(2 * chunk, np.float32)
        self.out: Host = nx.pinned_array(2 * chunk, np.float32)

    def _stage(self, samples: NDArray[np.float32]) -> nx.Transfer[Host]:
        return self.stream.upload(nx.pinned_copy(samples), to=self.d_in)

    def process(self, samples: NDArray[np.float32]) -> NDArray[np.float32]:
        if float(np.abs(samples).max()) < self.gate:
            self._stage(samples).wait().free()
            return np.zeros(2 * self.chunk, dtype=np.float32)
        up = self._stage(samples)
        self.stream.launch(upsample2, 2, 64, self.d_in, self.d_out)
        up.wait().free()
        self.out = self.stream.download(self.d_out, into=self.out).wait()
        result: NDArray[np.float32] = self.out.read().copy()
        return result

    def close(self) -> None:
        self.out.free()
        self.stream.close()


def pcm_chunks(signal: NDArray[np.float32], chunk: int) -> Iterator[NDArray[np.float32]]:
    it = iter(signal)
    while block := list(itertools.islice(it, chunk)):
        yield np.asarray(block, dtype=np.float32)


def main() -> None:
    chunk = 256
    t = np.arange(chunk * 6, dtype=np.float32) / 16000.0
    signal = (0.4 * np.sin(2 * np.pi * 300.0 * t)).astype(np.float32)
    signal[chunk * 2 : chunk * 3] = 0.0  # a silent chunk
    rs = Resampler(chunk, gate=1e-3)
    pieces = [rs.process(c) for c in pcm_chunks(signal, chunk)]
    rs.close()
    for i, (piece, c) in enumerate(zip(pieces, pcm_chunks(signal, chunk))):
        expected = upsample2_ref(c) if np.abs(c).max() >= 1e-3 else np.zeros(2 * chunk, np.float32)
        assert np.allclose(piece, expected, atol=1e-6), f"chunk {i} wrong"
    print(f"wav_resampler: {len(pieces)} chunks -> {sum(p.size for p in pieces)} samples")


if __name__ == "__main__":
    main()
