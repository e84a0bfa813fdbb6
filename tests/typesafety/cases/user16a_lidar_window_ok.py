# RUN: ok
"""A lidar range monitor: each sweep is reduced on the device to per-sector minimum
ranges and downloaded into a pinned buffer. The monitor keeps the last `window` sweeps
in flight in a bounded deque and reports the closest obstacle over that window.

When the window is full the oldest sweep is retired first: its download is completed
and its buffer reused for the new sweep.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def sector_min(ranges: Any, out: Any, per_sector: int) -> None:
    s = cuda.grid(1)
    if s < out.size:
        m = ranges[s * per_sector]
        for j in range(1, per_sector):
            v = ranges[s * per_sector + j]
            if v < m:
                m = v
        out[s] = m


class LidarWindow:
    def __init__(self, points: int, sectors: int, window: int) -> None:
        self.stream = nx.stream()
        self.ranges = nx.device_array(points, np.float32)
        self.sectors = nx.device_array(sectors, np.float32)
        self.per_sector = points // sectors
        self.window = window
        self.inflight: deque[tuple[int, nx.Transfer[Host]]] = deque(maxlen=window)
        self.free: list[Host] = []
        self.sweeps = 0

    def _buffer(self) -> Host:
        if self.free:
            return self.free.pop()
        return nx.pinned_array(self.sectors.size, np.float32)

    def push(self, sweep: np.ndarray[Any, np.dtype[np.float32]]) -> None:
        if len(self.inflight) == self.window:
            _, oldest = self.inflight.popleft()
            self.free.append(oldest.wait())
        self.stream.upload_staged(sweep, to=self.ranges)
        self.stream.launch(sector_min, 1, 32, self.ranges, self.sectors, self.per_sector)
        down = self.stream.download(self.sectors, into=self._buffer())
        self.inflight.append((self.sweeps, down))
        self.sweeps += 1

    def closest(self) -> tuple[float, int]:
        best, best_sweep = float("inf"), -1
        while self.inflight:
            k, down = self.inflight.popleft()
            buf = down.wait()
            m = float(buf.read().min())
            if m < best:
                best, best_sweep = m, k
            self.free.append(buf)
        return best, best_sweep

    def close(self) -> None:
        while self.inflight:
            _, down = self.inflight.popleft()
            self.free.append(down.wait())
        self.stream.close()


def main() -> None:
    points, sectors, window = 512, 16, 3
    rng = np.random.default_rng(8)
    mon = LidarWindow(points, sectors, window)
    sweeps = [rng.uniform(1.0 + k, 50.0, points).astype(np.float32) for k in range(6)]
    for sweep in sweeps:
        mon.push(sweep)
    best, at = mon.closest()
    mon.close()
    expect = min(float(s.min()) for s in sweeps[-window:])
    assert best == expect, (best, expect)
    assert at == 6 - window
    assert len(mon.free) == window, len(mon.free)
    print("lidar_window: ok", round(best, 4), "at sweep", at)


if __name__ == "__main__":
    main()
