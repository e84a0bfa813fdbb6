# RUN: ok
"""Brighten decoded video frames in place: each numpy frame is pinned for its trip."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def brighten(a: Any, amount: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        v = a[i] + amount
        a[i] = v if v < 1.0 else 1.0


def decode(count: int, pixels: int) -> list[NDArray[np.float32]]:
    rng = np.random.default_rng(42)
    return [rng.random(pixels, dtype=np.float32) * 0.5 for _ in range(count)]


def brighten_frame(frame: NDArray[np.float32], dev: Dev, s: nx.Stream[nx.Lent], amount: float) -> None:
    with nx.pinned(frame) as h:
        up = s.upload(h, to=dev)
        s.launch(brighten, 1, 64, dev, amount)
        h = up.wait()
        down = s.download(dev, into=h)
        h = down.wait()


def main() -> None:
    frames = decode(4, 96)
    originals = [f.copy() for f in frames]
    s = nx.stream()
    dev = nx.device_array(96, np.float32)
    for idx, frame in enumerate(frames):
        brighten_frame(frame, dev, s, 0.1 * (idx + 1))
    dev.free()
    s.close()
    for idx, (f, o) in enumerate(zip(frames, originals)):
        assert np.allclose(f, np.minimum(o + 0.1 * (idx + 1), 1.0), atol=1e-6), idx
    print(f"brightened {len(frames)} frames in place")


if __name__ == "__main__":
    main()
