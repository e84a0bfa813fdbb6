# RUN: ok
"""Noise gate worker driven on a lent stream.

A ``GateWorker`` receives a ``Stream[Lent]`` (it may enqueue, never close) and gates
audio chunks on the device: samples below a threshold estimated from a noise profile are
zeroed. The owner lends its stream for the session, feeds every chunk through the
worker inside the lend, and closes the stream afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def gate(x: Any, thresh: float) -> None:
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        if abs(x[i]) < thresh:
            x[i] = 0.0


@dataclass
class GateWorker:
    stream: nx.Stream[nx.Lent]
    chunk: int
    thresh: float
    dev: nx.DeviceArray[nx.Owned, np.float32] = field(init=False)
    buf: Host = field(init=False)
    processed: int = 0

    def __post_init__(self) -> None:
        self.dev = nx.device_array(self.chunk, np.float32)
        self.buf = nx.pinned_array(self.chunk, np.float32)

    def process(self, samples: NDArray[np.float32]) -> NDArray[np.float32]:
        with self.buf.write() as a:
            a[:] = samples
        up = self.stream.upload(self.buf, to=self.dev)
        self.stream.launch(gate, 2, 64, self.dev, self.thresh)
        self.buf = self.stream.download(self.dev, into=up).wait()
        self.processed += 1
        out: NDArray[np.float32] = self.buf.read().copy()
        return out

    def release(self) -> None:
        self.buf.free()
        self.dev.free()


def noise_threshold(profile: NDArray[np.float32], k: float = 3.0) -> float:
    return float(k * np.sqrt(np.mean(profile.astype(np.float64) ** 2)))


def main() -> None:
    chunk = 512
    rng = np.random.default_rng(15)
    noise = (0.01 * rng.standard_normal(chunk * 5)).astype(np.float32)
    t = np.arange(chunk * 5, dtype=np.float32) / 8000.0
    voice = np.where((t > 0.1) & (t < 0.25), 0.5 * np.sin(2 * np.pi * 200.0 * t), 0.0)
    signal = (voice + noise).astype(np.float32)
    thresh = noise_threshold(noise[:chunk])
    chunks = np.split(signal, 5)
    s = nx.stream()
    outputs: list[NDArray[np.float32]] = []
    with s.lend() as ls:
        worker = GateWorker(ls, chunk, thresh)
        outputs.append(worker.process(chunks[0]))
        for c in chunks[1:]:
            outputs.append(worker.process(c))
    worker.release()
    s.close()
    gated = np.concatenate(outputs)
    expected = np.where(np.abs(signal) < np.float32(thresh), 0.0, signal)
    assert np.array_equal(gated, expected), "gate mismatch"
    print(f"spectral_gating: {worker.processed} chunks, {int((gated == 0).sum())} samples gated")


if __name__ == "__main__":
    main()
