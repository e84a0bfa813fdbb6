# RUN: ok
"""Multichannel EEG smoothing: baseline correction, channel stats, device FIR filter.

A recorder holds an (channels, samples) pinned block. It removes each channel's
baseline in place, takes per-channel statistics through a lent view, then uploads the
block and runs a 5-tap moving-average FIR along each channel on the device.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Block = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def fir5(src: Any, dst: Any) -> None:
    ch, t = cuda.grid(2)
    nch, ns = src.shape
    if ch < nch and t < ns:
        acc = 0.0
        for k in range(5):
            j = t - k
            if j >= 0:
                acc += src[ch, j]
        dst[ch, t] = acc / 5.0


def fir5_ref(x: NDArray[np.float32]) -> NDArray[np.float32]:
    out = np.zeros_like(x, dtype=np.float64)
    for k in range(5):
        out[:, k:] += x[:, : x.shape[1] - k]
    return (out / 5.0).astype(np.float32)


@dataclass(frozen=True)
class ChannelStats:
    mean: NDArray[np.float64]
    peak: NDArray[np.float64]

    @property
    def noisiest(self) -> int:
        return int(np.argmax(self.peak))


def channel_stats(view: nx.PinnedArray[nx.Lent, np.float32]) -> ChannelStats:
    data = view.read().astype(np.float64)
    return ChannelStats(mean=data.mean(axis=1), peak=np.abs(data).max(axis=1))


class EEGRecorder:
    def __init__(self, channels: int, samples: int) -> None:
        self.shape = (channels, samples)
        self.block: Block = nx.pinned_array(self.shape, np.float32)
        self.stream = nx.stream()
        self.d_in = nx.device_array(self.shape, np.float32)
        self.d_out = nx.device_array(self.shape, np.float32)

    def record(self, raw: NDArray[np.float32]) -> None:
        with self.block.write() as a:
            a[:] = raw

    def rereference(self, buf: Block) -> None:
        with buf.write() as a:
            a -= a.mean(axis=1, keepdims=True)

    def analyse(self) -> ChannelStats:
        self.rereference(self.block)
        with self.block.lend() as view:
            stats = channel_stats(view)
        return stats

    def filter(self) -> NDArray[np.float32]:
        up = self.stream.upload(self.block, to=self.d_in)
        grid = ((self.shape[0] + 3) // 4, (self.shape[1] + 31) // 32)
        self.stream.launch(fir5, grid, (4, 32), self.d_in, self.d_out)
        self.block = self.stream.download(self.d_out, into=up.wait()).wait()
        out: NDArray[np.float32] = self.block.read().copy()
        return out

    def close(self) -> None:
        self.block.free()
        self.stream.close()


def main() -> None:
    channels, samples = 8, 256
    rng = np.random.default_rng(5)
    raw = (rng.standard_normal((channels, samples)) + np.arange(channels)[:, None]).astype(np.float32)
    rec = EEGRecorder(channels, samples)
    rec.record(raw)
    stats = rec.analyse()
    filtered = rec.filter()
    rec.close()
    centred = (raw - raw.mean(axis=1, keepdims=True)).astype(np.float32)
    assert np.allclose(stats.mean, 0.0, atol=1e-5), "baseline not removed"
    assert np.allclose(filtered, fir5_ref(centred), atol=1e-5), "FIR mismatch"
    print(f"eeg_bandpass: noisiest channel {stats.noisiest}, out std {float(filtered.std()):.3f}")


if __name__ == "__main__":
    main()
