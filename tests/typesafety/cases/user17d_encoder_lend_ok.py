# RUN: ok
"""A capture session: frames are rendered on the device, downloaded into one of two
pinned frame buffers, and handed to an encoder task that packetizes them.

The encoder runs as its own asyncio task and lends the frame buffer for as long as it
sends packets (it awaits the socket between packets), so the capture loop may reuse a
frame buffer only once the encoder task that lends it has finished.
"""

from __future__ import annotations

import asyncio
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
CHUNKS = 4


@cuda.jit
def render(a: Any, seq: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = seq * 10.0 + i


class Encoder:
    def __init__(self) -> None:
        self.packets: list[tuple[int, int, float]] = []

    async def send(self, seq: int, frame: nx.PinnedArray[nx.Lent, np.float32]) -> None:
        q = frame.size // CHUNKS
        for c in range(CHUNKS):
            part = frame.read()[c * q : (c + 1) * q]
            self.packets.append((seq, c, float(part.sum(dtype=np.float64))))
            await asyncio.sleep(0)  # the socket drains


class CaptureSession:
    def __init__(self, n: int) -> None:
        self.n = n
        self.stream = nx.stream()
        self.dev = nx.device_array(n, np.float32)
        self.frames: list[Host] = [nx.pinned_array(n, np.float32) for _ in range(2)]
        self.encoding: dict[int, asyncio.Task[None]] = {}
        self.encoder = Encoder()

    async def _encode(self, slot: int, seq: int) -> None:
        with self.frames[slot].lend() as view:
            await self.encoder.send(seq, view)

    async def capture(self, count: int) -> None:
        for seq in range(count):
            await asyncio.sleep(0)  # frame clock
            slot = seq % 2
            busy = self.encoding.pop(slot, None)
            if busy is not None:
                await busy  # the encoder is done with this buffer
            self.stream.launch(render, 1, 16, self.dev, float(seq))
            down = self.stream.download(self.dev, into=self.frames[slot])
            self.frames[slot] = await down
            self.encoding[slot] = asyncio.create_task(self._encode(slot, seq))

    async def finish(self) -> None:
        for task in self.encoding.values():
            await task
        self.encoding.clear()
        self.stream.close()


async def run(session: CaptureSession, count: int) -> list[tuple[int, int, float]]:
    await session.capture(count)
    await session.finish()
    return session.encoder.packets


def main() -> None:
    n, count = 64, 6
    session = CaptureSession(n)
    packets = asyncio.run(run(session, count))
    assert len(packets) == count * CHUNKS, len(packets)
    q = n // CHUNKS
    for seq, c, total in packets:
        want = float(sum(seq * 10.0 + i for i in range(c * q, (c + 1) * q)))
        assert total == want, (seq, c, total, want)
    per_frame = {seq: sum(t for s, _, t in packets if s == seq) for seq in range(count)}
    assert per_frame[count - 1] == float((count - 1) * 10 * n + n * (n - 1) // 2)
    print(f"encoder_lend: {count} frames, {len(packets)} packets")


if __name__ == "__main__":
    main()
