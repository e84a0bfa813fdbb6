# RUN: raises UseAfterTransferError via-call
# XFAIL: miss (line 67): the partial re-passes the scratch handle bound at creation, moved by the first call
# Planted bug: the partial re-passes the scratch handle bound at creation, moved by the first call
"""Short-time framing: window each frame on the GPU, with the per-frame step built by
functools.partial.

``window_frame`` takes the scratch buffer by value (it moves into the upload and the
download) and returns the handle the last transfer gave back; the loop rebinds it.
The stream, the device window and the device frame are bound once with partial.
"""

from __future__ import annotations

import functools
from typing import Any, Callable

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def apply_window(frame: Any, window: Any) -> None:
    for i in range(cuda.grid(1), frame.size, cuda.gridsize(1)):
        frame[i] = frame[i] * window[i]


def window_frame(
    s: nx.Stream[nx.Lent],
    d_window: Dev,
    d_frame: Dev,
    scratch: nx.Consumed[Host],
    frame: NDArray[np.float32],
) -> Host:
    """Window one frame; return the scratch buffer holding the windowed samples."""
    with scratch.write() as a:
        a[:] = frame
    up = s.upload(scratch, to=d_frame)
    s.launch(apply_window, max(1, frame.size // 256), 64, d_frame, d_window)
    scratch = up.wait()
    down = s.download(d_frame, into=scratch)
    return down.wait()


def frames_of(x: NDArray[np.float32], size: int, hop: int) -> list[NDArray[np.float32]]:
    return [x[i : i + size] for i in range(0, x.size - size + 1, hop)]


def stft_magnitudes(x: NDArray[np.float32], size: int, hop: int) -> NDArray[np.float64]:
    s = nx.stream()
    window = np.hanning(size).astype(np.float32)
    d_window = nx.device_array(size, np.float32)
    s.upload_staged(window, to=d_window)
    d_frame = nx.device_array(size, np.float32)
    scratch = nx.pinned_array(size, np.float32)

    step: Callable[[NDArray[np.float32]], Host] = functools.partial(
        window_frame, s, d_window, d_frame, scratch
    )
    spectra: list[NDArray[np.float64]] = []
    for frame in frames_of(x, size, hop):
        scratch = step(frame)  # E: use-after-transfer
        spectra.append(np.abs(np.fft.rfft(scratch.read().astype(np.float64))))

    scratch.free()
    d_frame.free()
    d_window.free()
    s.close()
    return np.stack(spectra)


def main() -> None:
    n, size, hop = 1024, 128, 64
    t = np.arange(n, dtype=np.float64)
    x = (np.sin(2 * np.pi * 16 * t / size) + 0.5 * np.sin(2 * np.pi * 40 * t / size)).astype(np.float32)
    mags = stft_magnitudes(x, size, hop)
    window = np.hanning(size).astype(np.float32)
    ref = np.stack([np.abs(np.fft.rfft((f * window).astype(np.float64))) for f in frames_of(x, size, hop)])
    assert mags.shape == ref.shape
    assert np.allclose(mags, ref, atol=1e-3), "windowed spectra mismatch"
    peak_bins = set(int(b) for b in np.argmax(mags, axis=1))
    assert peak_bins == {16}, peak_bins
    print(f"partial_window: right, {mags.shape[0]} frames, peak bin {peak_bins.pop()}")


if __name__ == "__main__":
    main()
