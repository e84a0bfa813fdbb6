# RUN: ok
"""Multitrack audio mixdown with completion callbacks built from functools.partial.

Each track is uploaded from a fresh pinned copy and mixed into a device bus with its
gain. A completion callback per upload (``partial(self._release, transfer)``) frees the
staging memory; ``poll()`` fires the callbacks whose copies are done and keeps the
rest, and ``close()`` fires whatever is left.
"""

from __future__ import annotations

from collections import deque
from functools import partial
from typing import Any, Callable

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def mix_into(bus: Any, track: Any, gain: float) -> None:
    for i in range(cuda.grid(1), bus.size, cuda.gridsize(1)):
        bus[i] += gain * track[i]


class Mixer:
    def __init__(self, frames: int) -> None:
        self.frames = frames
        self.stream = nx.stream()
        self.bus = nx.device_array(frames, np.float32)
        self.track_devs: list[nx.DeviceArray[nx.Owned, np.float32]] = []
        self.callbacks: deque[tuple[nx.Transfer[Host], Callable[[], None]]] = deque()
        self.released = 0
        self.stream.upload(nx.pinned_copy(np.zeros(frames, np.float32)), to=self.bus).wait().free()

    def _release(self, t: nx.Transfer[Host]) -> None:
        t.wait().free()
        self.released += 1

    def add_track(self, samples: NDArray[np.float32], gain: float) -> None:
        dev = nx.device_array(self.frames, np.float32)
        self.track_devs.append(dev)
        up = self.stream.upload(nx.pinned_copy(samples), to=dev)
        self.stream.launch(mix_into, 2, 64, self.bus, dev, gain)
        self.callbacks.append((up, partial(self._release, up)))

    def poll(self) -> None:
        still: deque[tuple[nx.Transfer[Host], Callable[[], None]]] = deque()
        while self.callbacks:
            t, cb = self.callbacks.popleft()
            if t.done():
                cb()
            else:
                still.append((t, cb))
        self.callbacks = still

    def render(self) -> NDArray[np.float32]:
        out = self.stream.download(self.bus, into=nx.pinned_array(self.frames, np.float32)).wait()
        mix: NDArray[np.float32] = out.read().copy()
        out.free()
        return mix

    def close(self) -> None:
        try:
            for _, cb in self.callbacks:
                cb()
        finally:
            self.callbacks.clear()
            self.stream.close()


def main() -> None:
    frames = 1024
    t = np.arange(frames, dtype=np.float32) / 22050.0
    tracks = {
        "bass": (np.sin(2 * np.pi * 55.0 * t).astype(np.float32), 0.8),
        "lead": (np.sin(2 * np.pi * 440.0 * t).astype(np.float32), 0.3),
        "pad": (np.cos(2 * np.pi * 220.0 * t).astype(np.float32), 0.5),
    }
    mixer = Mixer(frames)
    for samples, gain in tracks.values():
        mixer.add_track(samples, gain)
    mixer.poll()
    mix = mixer.render()
    mixer.close()
    expected = sum(g * s for s, g in tracks.values())
    assert np.allclose(mix, expected, atol=1e-5), "mixdown mismatch"
    assert mixer.released == len(tracks)
    print(f"audio_mixdown: {len(tracks)} tracks, peak {float(np.abs(mix).max()):.3f}")


if __name__ == "__main__":
    main()
