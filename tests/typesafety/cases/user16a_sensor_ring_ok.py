# RUN: ok
"""A sensor ring buffer: every tick the device integrates a burst of samples and the
accumulator is downloaded into one of a few pinned slots.

`tick()` keeps at most `capacity` downloads in flight, draining the oldest when the
ring is full. `flush()` drains everything; `close()` is the cleanup path that also
drains whatever an early exit left behind, then closes the stream.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def integrate(acc: Any, tick: int, gain: float) -> None:
    for i in range(cuda.grid(1), acc.size, cuda.gridsize(1)):
        acc[i] = gain * (tick + 1) + i % 4


class SensorRing:
    def __init__(self, channels: int, capacity: int = 3, gain: float = 0.5) -> None:
        self.stream = nx.stream()
        self.acc = nx.device_array(channels, np.float32)
        self.capacity = capacity
        self.gain = gain
        self.free: list[Host] = [nx.pinned_array(channels, np.float32) for _ in range(capacity)]
        self.pending: deque[tuple[int, nx.Transfer[Host]]] = deque()
        self.readings: dict[int, float] = {}
        self.ticks = 0

    def _consume(self, tick: int, down: nx.Transfer[Host]) -> None:
        buf = down.wait()
        self.readings[tick] = float(buf.read().sum(dtype=np.float64))
        self.free.append(buf)

    def _drain_oldest(self) -> None:
        tick, down = self.pending.popleft()
        self._consume(tick, down)

    def tick(self) -> None:
        if len(self.pending) == self.capacity:
            self._drain_oldest()
        self.stream.launch(integrate, 2, 64, self.acc, self.ticks, self.gain)
        buf = self.free.pop()
        self.pending.append((self.ticks, self.stream.download(self.acc, into=buf)))
        self.ticks += 1

    def flush(self) -> dict[int, float]:
        while self.pending:
            tick, down = self.pending.popleft()
            self._consume(tick, down)
        return dict(self.readings)

    def close(self) -> None:
        while self.pending:  # whatever an early exit left in flight
            _, down = self.pending.popleft()
            self.free.append(down.wait())
        self.stream.close()


def main() -> None:
    channels, ticks = 256, 8
    ring = SensorRing(channels, capacity=3)
    try:
        for _ in range(ticks):
            ring.tick()
        readings = ring.flush()
    finally:
        ring.close()
    assert sorted(readings) == list(range(ticks))
    base = float(sum(i % 4 for i in range(channels)))
    for t, v in readings.items():
        assert v == 0.5 * (t + 1) * channels + base, (t, v)
    assert len(ring.free) == 3
    print("sensor_ring: ok", readings)


if __name__ == "__main__":
    main()
