# RUN: ok
"""An audio effects chain: blocks of samples are staged through a `PinnedPool`, run
through a gain-and-clip kernel and downloaded into pooled output buffers. A level
meter tracks the peak of every processed block.

`Chain.process()` returns the processed block as a numpy copy; pool buffers go back to
the pool as soon as their contents have been consumed.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def gain_clip(src: Any, dst: Any, gain: float) -> None:
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        v = src[i] * gain
        dst[i] = min(1.0, max(-1.0, v))


class LevelMeter:
    def __init__(self) -> None:
        self.peaks: list[float] = []

    def update(self, block: NDArray[np.float32]) -> None:
        self.peaks.append(float(np.abs(block).max()))


class Chain:
    def __init__(self, block: int, gain: float) -> None:
        self.stream = nx.stream()
        self.gain = gain
        self.d_in = nx.device_array(block, np.float32)
        self.d_out = nx.device_array(block, np.float32)
        self.staging: nx.PinnedPool[np.float32] = nx.PinnedPool(2, block, np.float32)
        self.outputs: nx.PinnedPool[np.float32] = nx.PinnedPool(2, block, np.float32)
        self.meter = LevelMeter()

    def _send(self, samples: NDArray[np.float32]) -> None:
        buf = self.staging.take()
        with buf.write() as a:
            a[:] = samples
        self.staging.recycle(self.stream.upload(buf, to=self.d_in))

    def _release(self, buf: Host) -> None:
        self.outputs.give(buf)

    def process(self, samples: NDArray[np.float32]) -> NDArray[np.float32]:
        self._send(samples)
        self.stream.launch(gain_clip, 2, 64, self.d_in, self.d_out, self.gain)
        out = self.stream.download(self.d_out, into=self.outputs.take()).wait()
        result: NDArray[np.float32] = out.read().copy()
        self.meter.update(out.read())
        self._release(out)
        return result

    def close(self) -> None:
        self.staging.drain()
        self.stream.close()


def main() -> None:
    block, blocks = 256, 5
    t = np.arange(block * blocks, dtype=np.float32) / np.float32(64.0)
    signal = (np.float32(0.6) * np.sin(t)).astype(np.float32)
    chain = Chain(block, gain=2.0)
    processed = [chain.process(signal[k * block : (k + 1) * block]) for k in range(blocks)]
    chain.close()
    expect = np.clip(signal * np.float32(2.0), -1.0, 1.0)
    assert np.allclose(np.concatenate(processed), expect, atol=1e-6)
    assert chain.meter.peaks == [float(np.abs(p).max()) for p in processed]
    print("audio_pool_meter: ok", [round(p, 3) for p in chain.meter.peaks])


if __name__ == "__main__":
    main()
