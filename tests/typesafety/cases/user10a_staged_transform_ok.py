# RUN: ok
"""An FFT-like staged pipeline: the signal is split into per-stream chunks, each chunk
goes through butterfly-style stages on its own stream, and the chunks are joined back."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def butterfly(src: Any, dst: Any, half: int) -> None:
    """One radix-2 stage on a chunk: pairs (i, i + half) -> (a + b, a - b)."""
    for k in range(cuda.grid(1), src.size // 2, cuda.gridsize(1)):
        group = k // half
        j = k % half
        i = group * 2 * half + j
        a = src[i]
        b = src[i + half]
        dst[i] = a + b
        dst[i + half] = a - b


class StagedTransform:
    def __init__(self, chunk: int, nchunks: int) -> None:
        self.chunk = chunk
        self.nchunks = nchunks
        self.streams = [nx.stream() for _ in range(nchunks)]
        n = chunk * nchunks
        self.d_a: list[Dev] = nx.split(nx.device_array(n, np.float32), nchunks)
        self.d_b: list[Dev] = nx.split(nx.device_array(n, np.float32), nchunks)

    def stages(self) -> list[int]:
        out, half = [], self.chunk // 2
        while half >= 1:
            out.append(half)
            half //= 2
        return out

    def run_chunk(self, i: int, part: Host) -> nx.Transfer[Host]:
        s = self.streams[i]
        a, b = self.d_a[i], self.d_b[i]
        up = s.upload(part, to=a)
        for half in self.stages():
            s.launch(butterfly, 1, 32, a, b, half)
            a, b = b, a
        return s.download(a, into=up)

    def transform(self, signal: Host) -> Host:
        parts = nx.split(signal, self.nchunks)
        pending = [self.run_chunk(i, p) for i, p in enumerate(parts)]
        done = [t.wait() for t in pending]
        return nx.join(done)

    def close(self) -> None:
        for s in self.streams:
            s.close()


def reference(x: np.ndarray[Any, np.dtype[np.float32]], chunk: int) -> np.ndarray[Any, np.dtype[np.float32]]:
    y = x.reshape(-1, chunk).astype(np.float64)
    half = chunk // 2
    while half >= 1:
        z = y.copy()
        for g in range(0, chunk, 2 * half):
            a, b = y[:, g : g + half], y[:, g + half : g + 2 * half]
            z[:, g : g + half], z[:, g + half : g + 2 * half] = a + b, a - b
        y, half = z, half // 2
    return y.reshape(-1).astype(np.float32)


def main() -> None:
    chunk, nchunks = 64, 4
    x = np.sin(np.arange(chunk * nchunks, dtype=np.float32) * 0.1).astype(np.float32)
    engine = StagedTransform(chunk, nchunks)
    out = engine.transform(nx.pinned_copy(x))
    engine.close()
    got = out.read()
    assert np.allclose(got, reference(x, chunk), atol=1e-3)
    print("staged transform ok, first bins:", np.round(got[:4], 3))


if __name__ == "__main__":
    main()
