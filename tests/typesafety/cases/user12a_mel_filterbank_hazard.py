# RUN: raises StreamClosedError
# Planted bug: the mel download is started after the ExitStack block, whose callbacks already closed the stream.
"""Log-mel features: power spectra on the host, mel projection on the device.

Audio is framed and windowed, its power spectra computed with numpy's rFFT, and the
(frames, bins) block projected onto a triangular mel filterbank by an ``nx.kernel``.
Resources are registered on a ``contextlib.ExitStack``: the stream's ``close`` and a
``functools.partial`` that frees the pinned buffers run when the block ends.
"""

from __future__ import annotations

from contextlib import ExitStack
from functools import partial
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@nx.kernel(reads=["power", "fb"], writes=["mel"])
@cuda.jit
def mel_project(power: Any, fb: Any, mel: Any) -> None:
    f, m = cuda.grid(2)
    if f < mel.shape[0] and m < mel.shape[1]:
        acc = 0.0
        for b in range(power.shape[1]):
            acc += power[f, b] * fb[b, m]
        mel[f, m] = acc


def mel_filterbank(bins: int, mels: int, sr: float) -> NDArray[np.float32]:
    def hz_to_mel(h: NDArray[np.float64]) -> NDArray[np.float64]:
        return 2595.0 * np.log10(1.0 + h / 700.0)

    edges = 700.0 * (10 ** (np.linspace(0, hz_to_mel(np.array(sr / 2)), mels + 2) / 2595.0) - 1)
    freqs = np.linspace(0, sr / 2, bins)
    fb = np.zeros((bins, mels))
    for m in range(mels):
        lo, c, hi = edges[m], edges[m + 1], edges[m + 2]
        fb[:, m] = np.clip(np.minimum((freqs - lo) / (c - lo), (hi - freqs) / (hi - c)), 0, None)
    return fb.astype(np.float32)


def free_all(bufs: list[Host]) -> None:
    while bufs:
        bufs.pop().free()


def power_frames(signal: NDArray[np.float32], n_fft: int, hop: int) -> NDArray[np.float32]:
    win = np.hanning(n_fft)
    frames = [signal[i : i + n_fft] * win for i in range(0, signal.size - n_fft + 1, hop)]
    return (np.abs(np.fft.rfft(np.stack(frames), axis=1)) ** 2).astype(np.float32)


def main() -> None:
    sr, n_fft, hop, mels = 8000.0, 128, 64, 16
    t = np.arange(1088, dtype=np.float32) / sr
    signal = (np.sin(2 * np.pi * 600 * t) + 0.3 * np.sin(2 * np.pi * 2500 * t)).astype(np.float32)
    power = power_frames(signal, n_fft, hop)
    fb = mel_filterbank(power.shape[1], mels, sr)
    with ExitStack() as stack:
        s = nx.stream()
        stack.callback(s.close)
        held: list[Host] = []
        stack.callback(partial(free_all, held))
        d_pow = nx.device_array(power.shape, np.float32)
        d_fb = nx.device_array(fb.shape, np.float32)
        d_mel = nx.device_array((power.shape[0], mels), np.float32)
        held.append(s.upload(nx.pinned_copy(power), to=d_pow).wait())
        held.append(s.upload(nx.pinned_copy(fb), to=d_fb).wait())
        mel_project[(2, 2), (8, 8), s](d_pow, d_fb, d_mel)
    out = s.download(d_mel, into=nx.pinned_array((power.shape[0], mels), np.float32)).wait()  # E: use-after-transfer
    log_mel = np.log10(out.read() + 1e-6)
    out.free()
    ref = np.log10(power @ fb + 1e-6)
    assert np.allclose(log_mel, ref, atol=1e-3), "log-mel mismatch"
    print(f"mel_filterbank: {log_mel.shape[0]} frames x {mels} mels, peak band {int(log_mel.mean(0).argmax())}")


if __name__ == "__main__":
    main()
