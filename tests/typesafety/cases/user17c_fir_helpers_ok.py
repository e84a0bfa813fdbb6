# RUN: ok
"""Block FIR filtering of a long recording, structured as small helper functions.

Each block of the recording is pinned in place, uploaded, convolved with the taps on
the device and downloaded into one reused pinned output buffer. The helpers take and
return handles; the caller decides when to wait.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def fir(x: Any, taps: Any, y: Any) -> None:
    """Causal FIR inside one block: y[i] = sum_k taps[k] * x[i - k] (zero before 0)."""
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        acc = 0.0
        for k in range(taps.size):
            if i - k >= 0:
                acc += taps[k] * x[i - k]
        y[i] = acc


def grid_for(n: int) -> tuple[int, int]:
    return max(1, min(64, n // 256)), 64


def load_taps(taps: NDArray[np.float32], s: nx.Stream[nx.Lent]) -> Dev:
    """Small constant input: one staged host copy, no pinned buffer to manage."""
    d_taps = nx.device_array(taps.size, np.float32)
    s.upload_staged(taps, to=d_taps)
    return d_taps


def log_peak(tag: str, buf: nx.PinnedArray[nx.Lent, np.float32], peaks: list[str]) -> None:
    """Debug helper: record the peak magnitude of a host buffer."""
    peaks.append(f"{tag}: {float(np.abs(buf.read()).max()):.3f}")


def run_block(
    s: nx.Stream[nx.Lent], h_in: nx.Consumed[Host], d_in: Dev, d_taps: Dev, d_out: Dev
) -> nx.Transfer[Host]:
    """Enqueue upload and filter; return the upload so the caller takes h_in back."""
    up = s.upload(h_in, to=d_in)
    blocks, threads = grid_for(d_in.size)
    s.launch(fir, blocks, threads, d_in, d_taps, d_out)
    return up


def collect(
    s: nx.Stream[nx.Lent], d_out: Dev, out: nx.Consumed[Host], peaks: list[str], tag: str
) -> Host:
    """Download the filtered block into ``out`` and hand ``out`` back once it landed."""
    down = s.download(d_out, into=out)
    out = down.wait()
    log_peak(tag, out, peaks)
    return out


def filter_recording(
    recording: NDArray[np.float32], taps: NDArray[np.float32], block: int
) -> tuple[NDArray[np.float32], list[str]]:
    s = nx.stream()
    d_taps = load_taps(taps, s)
    d_in = nx.device_array(block, np.float32)
    d_out = nx.device_array(block, np.float32)
    out = nx.pinned_array(block, np.float32)
    result = np.empty_like(recording)
    peaks: list[str] = []

    for b, start in enumerate(range(0, recording.size, block)):
        piece = np.ascontiguousarray(recording[start : start + block])
        with nx.pinned(piece) as h:
            up = run_block(s, h, d_in, d_taps, d_out)
            h = up.wait()
        out = collect(s, d_out, out, peaks, f"block{b}")
        result[start : start + block] = out.read()

    out.free()
    d_in.free()
    d_out.free()
    d_taps.free()
    s.close()
    return result, peaks


def reference(recording: NDArray[np.float32], taps: NDArray[np.float32], block: int) -> NDArray[np.float32]:
    ref = np.empty_like(recording)
    for start in range(0, recording.size, block):
        piece = recording[start : start + block].astype(np.float64)
        ref[start : start + block] = np.convolve(piece, taps.astype(np.float64))[: piece.size]
    return ref


def main() -> None:
    rng = np.random.default_rng(3)
    block = 128
    recording = rng.standard_normal(4 * block).astype(np.float32)
    taps = np.hanning(9).astype(np.float32)
    taps /= taps.sum()
    result, peaks = filter_recording(recording, taps, block)
    assert np.allclose(result, reference(recording, taps, block), atol=1e-4), "FIR mismatch"
    assert len(peaks) == 4
    print("fir_helpers: right,", ", ".join(peaks))


if __name__ == "__main__":
    main()
