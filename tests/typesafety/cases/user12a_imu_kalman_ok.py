# RUN: ok
"""IMU window shipper: bias-corrected acceleration magnitudes on the device.

Readings (a NamedTuple per sample) fill a pinned (window, 3) buffer. The window's bias
is a property computed from the buffer; ``ship()`` records it, uploads the window and
launches the magnitude kernel with the bias; ``settle()`` takes the buffer back and
fetches the magnitudes, which a scalar Kalman filter then smooths on the host.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def magnitude(acc: Any, out: Any, bx: float, by: float, bz: float) -> None:
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        dx, dy, dz = acc[i, 0] - bx, acc[i, 1] - by, acc[i, 2] - bz
        out[i] = (dx * dx + dy * dy + dz * dz) ** 0.5


class Reading(NamedTuple):
    t: float
    ax: float
    ay: float
    az: float


class ImuWindow:
    def __init__(self, size: int) -> None:
        self.size = size
        self.stream = nx.stream()
        self.buf: Host = nx.pinned_array((size, 3), np.float32)
        self.out: Host | None = nx.pinned_array(size, np.float32)
        self.d_acc = nx.device_array((size, 3), np.float32)
        self.d_mag = nx.device_array(size, np.float32)
        self.pending: nx.Transfer[Host] | None = None
        self.history: list[tuple[float, float, float]] = []

    @property
    def bias(self) -> tuple[float, float, float]:
        m = self.buf.read().mean(axis=0)
        return float(m[0]), float(m[1]), float(m[2])

    def fill(self, readings: list[Reading]) -> None:
        with self.buf.write() as a:
            for i, r in enumerate(readings):
                a[i] = (r.ax, r.ay, r.az)

    def ship(self) -> None:
        b = self.bias
        self.history.append(b)
        self.pending = self.stream.upload(self.buf, to=self.d_acc)
        self.stream.launch(magnitude, 2, 64, self.d_acc, self.d_mag, *b)

    def settle(self) -> NDArray[np.float32]:
        assert self.pending is not None and self.out is not None
        self.buf, self.pending = self.pending.wait(), None
        out = self.stream.download(self.d_mag, into=self.out).wait()
        mags: NDArray[np.float32] = out.read().copy()
        self.out = out
        return mags


def kalman(z: NDArray[np.float32], q: float = 1e-3, r: float = 0.05) -> NDArray[np.float64]:
    x, p, est = float(z[0]), 1.0, []
    for zi in z:
        p += q
        k = p / (p + r)
        x += k * (float(zi) - x)
        p *= 1.0 - k
        est.append(x)
    return np.asarray(est)


def main() -> None:
    size, windows = 256, 3
    rng = np.random.default_rng(4)
    win = ImuWindow(size)
    smoothed: list[float] = []
    for w in range(windows):
        raw = rng.normal([0.1, -0.2, 9.8], 0.05, (size, 3)).astype(np.float32)
        win.fill([Reading(i / 100.0, *map(float, row)) for i, row in enumerate(raw)])
        win.ship()
        mags = win.settle()
        ref = np.linalg.norm(raw - raw.mean(axis=0, dtype=np.float32), axis=1)
        assert np.allclose(mags, ref, atol=1e-4), f"window {w}: magnitude mismatch"
        smoothed.append(float(kalman(mags)[-1]))
    win.stream.close()
    print(f"imu_kalman: {len(win.history)} windows, smoothed {[round(s, 4) for s in smoothed]}")


if __name__ == "__main__":
    main()
