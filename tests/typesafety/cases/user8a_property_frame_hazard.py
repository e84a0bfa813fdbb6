# RUN: raises UseAfterTransferError via-call
# Planted bug: the progress line reads frame.pixels (a property that reads the host buffer) while the frame is in flight, instead of the metadata-only nbytes.
"""A camera frame object: the pixel buffer is exposed through properties, and send()
ships the frame to the device for a brightness correction."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.uint8]
Dev = nx.DeviceArray[nx.Owned, np.uint8]


@cuda.jit
def brighten(a: Any, amount: int) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] = min(255, a[i] + amount)


class Frame:
    def __init__(self, width: int, height: int, stream: nx.Stream[nx.Owned]) -> None:
        self.width, self.height = width, height
        self._stream = stream
        self._host: Host = nx.pinned_array(width * height, np.uint8)
        self._dev: Dev = nx.device_array(width * height, np.uint8)
        self._inflight: nx.Transfer[Host] | None = None

    @property
    def busy(self) -> bool:
        return self._inflight is not None

    @property
    def pixels(self) -> NDArray[np.uint8]:
        return self._host.read().reshape(self.height, self.width)

    @property
    def nbytes(self) -> int:
        return self._host.nbytes

    def capture(self, seed: int) -> None:
        with self._host.write() as a:
            a[:] = np.random.default_rng(seed).integers(0, 200, a.size, dtype=np.uint8)

    def send(self, amount: int) -> None:
        up = self._stream.upload(self._host, to=self._dev)
        self._stream.launch(brighten, 4, self._dev.size // 4, self._dev, amount)
        self._inflight = self._stream.download(self._dev, into=up)

    def land(self) -> None:
        if self._inflight is not None:
            self._host = self._inflight.wait()
            self._inflight = None


def main() -> None:
    s = nx.stream()
    frame = Frame(8, 6, s)
    frame.capture(seed=11)
    before = float(frame.pixels.mean())
    frame.send(40)
    print("in flight:", frame.busy, "peak", int(frame.pixels.max()))  # E: use-after-transfer
    frame.land()
    after = float(frame.pixels.mean())
    s.close()
    assert after > before, (before, after)
    print(f"property frame: mean {before:.1f} -> {after:.1f}")


if __name__ == "__main__":
    main()
