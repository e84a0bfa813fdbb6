# RUN: raises BorrowError
# Planted bug: run() keeps the lent steering view from the contextmanager in self.look and launches with it after the `with steering(...)` block has ended.
"""Delay-and-sum beamformer over a microphone array, steering weights lent per look.

Multichannel frames are uploaded and a kernel with declared reads sums the channels
with per-channel steering weights. The weights live on the device; a
``contextlib.contextmanager`` generator lends them for one look direction, and the
``Beamformer`` class launches the kernel inside that lend.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

DevF = nx.DeviceArray[nx.Owned, np.float32]


@nx.kernel(reads=["frames", "weights"], writes=["out"])
@cuda.jit
def delay_sum(frames: Any, weights: Any, out: Any) -> None:
    for t in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        acc = 0.0
        for ch in range(frames.shape[0]):
            acc += weights[ch] * frames[ch, t]
        out[t] = acc


@contextmanager
def steering(weights: DevF) -> Iterator[nx.DeviceArray[nx.Lent, np.float32]]:
    with weights.lend() as view:
        yield view


class Beamformer:
    def __init__(self, channels: int, samples: int) -> None:
        self.stream = nx.stream()
        self.d_frames = nx.device_array((channels, samples), np.float32)
        self.d_w = nx.device_array(channels, np.float32)
        self.d_out = nx.device_array(samples, np.float32)
        self.samples = samples

    def set_look(self, weights: NDArray[np.float32]) -> None:
        self.stream.upload(nx.pinned_copy(weights), to=self.d_w).wait().free()

    def load(self, frames: NDArray[np.float32]) -> None:
        self.stream.upload(nx.pinned_copy(frames), to=self.d_frames).wait().free()

    def run(self) -> NDArray[np.float32]:
        with steering(self.d_w) as w:
            self.look = w  # E: lend-escape
        delay_sum[4, 64, self.stream](self.d_frames, self.look, self.d_out)  # E: lend-escape
        return self.fetch()

    def fetch(self) -> NDArray[np.float32]:
        out = self.stream.download(self.d_out, into=nx.pinned_array(self.samples, np.float32)).wait()
        y: NDArray[np.float32] = out.read().copy()
        out.free()
        return y

    def close(self) -> None:
        self.stream.close()


def main() -> None:
    channels, samples = 6, 512
    rng = np.random.default_rng(12)
    frames = rng.standard_normal((channels, samples)).astype(np.float32)
    looks = {
        "broadside": np.full(channels, 1.0 / channels, np.float32),
        "endfire": np.linspace(1.0, 0.0, channels, dtype=np.float32),
    }
    bf = Beamformer(channels, samples)
    bf.load(frames)
    energies: dict[str, float] = {}
    for name, w in looks.items():
        bf.set_look(w)
        y = bf.run()
        assert np.allclose(y, w @ frames, atol=1e-5), f"{name}: beam mismatch"
        energies[name] = float(np.mean(y * y))
    bf.close()
    print(f"beamformer_weights: energies { {k: round(v, 4) for k, v in energies.items()} }")


if __name__ == "__main__":
    main()
