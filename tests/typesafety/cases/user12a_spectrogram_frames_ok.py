# RUN: ok
"""Audio spectrogram framing: a context-managed batcher uploads windowed frames.

Each frame of a mono signal is windowed on the host into one pinned staging buffer,
uploaded, and a kernel computes the per-sample power into a device accumulator. The
batcher keeps its in-flight uploads in a deque and collects them in order.
"""

from __future__ import annotations

from collections import deque
from types import TracebackType
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def accumulate_power(frame: Any, acc: Any) -> None:
    for i in range(cuda.grid(1), frame.size, cuda.gridsize(1)):
        acc[i] += frame[i] * frame[i]


class FrameBatcher:
    """Owns a stream, one staging buffer and a device accumulator for one frame size."""

    def __init__(self, frame_len: int) -> None:
        self.frame_len = frame_len
        self.window = np.hanning(frame_len).astype(np.float32)
        self.stream = nx.stream()
        self.host: Host | None = nx.pinned_array(frame_len, np.float32)
        self.frame_dev: Dev = nx.device_array(frame_len, np.float32)
        self.acc: Dev = nx.device_array(frame_len, np.float32)
        self.inflight: deque[nx.Transfer[Host]] = deque()
        self.checksums: list[float] = []

    def __enter__(self) -> FrameBatcher:
        zeros = nx.pinned_array(self.frame_len, np.float32)
        with zeros.write() as z:
            z[:] = 0.0
        self.stream.upload(zeros, to=self.acc).wait().free()
        return self

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.drain()
        if self.host is not None:
            self.host.free()
        self.stream.close()

    def _checksum(self, buf: Host) -> float:
        return float(buf.read().sum(dtype=np.float64))

    def submit(self, samples: NDArray[np.float32]) -> None:
        buf = self.host if self.host is not None else self.inflight.popleft().wait()
        self.host = None
        with buf.write() as a:
            a[:] = samples * self.window
        self.checksums.append(self._checksum(buf))
        self.inflight.append(self.stream.upload(buf, to=self.frame_dev))
        self.stream.launch(accumulate_power, 2, 64, self.frame_dev, self.acc)

    def drain(self) -> None:
        while self.inflight:
            buf = self.inflight.popleft().wait()
            if self.host is None:
                self.host = buf
            else:
                buf.free()

    def power(self) -> NDArray[np.float32]:
        self.drain()
        out = nx.pinned_array(self.frame_len, np.float32)
        out = self.stream.download(self.acc, into=out).wait()
        result: NDArray[np.float32] = out.read().copy()
        out.free()
        return result


def frames(signal: NDArray[np.float32], frame_len: int, hop: int) -> list[NDArray[np.float32]]:
    return [signal[i : i + frame_len] for i in range(0, signal.size - frame_len + 1, hop)]


def main() -> None:
    frame_len, hop = 256, 128
    t = np.arange(2048, dtype=np.float32) / 8000.0
    signal = np.sin(2 * np.pi * 440.0 * t).astype(np.float32)
    chunks = frames(signal, frame_len, hop)
    with FrameBatcher(frame_len) as fb:
        for chunk in chunks:
            fb.submit(chunk)
        power = fb.power()
        sums = list(fb.checksums)
    window = np.hanning(frame_len).astype(np.float32)
    expected = sum((c * window) ** 2 for c in chunks)
    assert np.allclose(power, expected, rtol=1e-4, atol=1e-4), "spectrogram power mismatch"
    assert len(sums) == len(chunks)
    print(f"spectrogram_frames: {len(chunks)} frames, total power {float(power.sum()):.3f}")


if __name__ == "__main__":
    main()
