# Sensor calibration: raw readings are written into a pinned buffer, calibrated on the
# host in place (offset and gain from a reference window), then uploaded for the
# device-side smoothing kernel; the smoothed trace comes back into a second buffer.
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def smooth3(src: Any, dst: Any) -> None:
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        lo = max(i - 1, 0)
        hi = min(i + 1, src.size - 1)
        dst[i] = (src[lo] + src[i] + src[hi]) / 3.0


def calibrate(raw: NDArray[np.float32], reference: int) -> tuple[float, float]:
    window = raw[:reference]
    offset = float(window.mean())
    gain = 1.0 / float(window.std() or 1.0)
    return offset, gain


def process(s: nx.Stream[nx.Owned], readings: NDArray[np.float32]) -> NDArray[np.float32]:
    n = readings.size
    host = nx.pinned_array(n, np.float32)
    out = nx.pinned_array(n, np.float32)
    d_in = nx.device_array(n, np.float32)
    d_out = nx.device_array(n, np.float32)
    with host.write() as a:
        a[:] = readings
        offset, gain = calibrate(a, reference=8)
        a -= offset
        a *= gain
    up = s.upload(host, to=d_in)  # after the block: the write view is closed
    s.launch(smooth3, 1, 32, d_in, d_out)
    out = s.download(d_out, into=out).wait()
    host = up.wait()
    return out.read().copy()


def main() -> None:
    s = nx.stream()
    readings = np.concatenate([np.full(8, 5.0), np.full(24, 7.0)]).astype(np.float32)
    readings[1::2] += 1.0
    trace = process(s, readings)
    s.close()
    assert trace.shape == (32,) and abs(float(trace[:6].mean())) < 1.0


if __name__ == "__main__":
    main()
