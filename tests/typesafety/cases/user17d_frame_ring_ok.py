# RUN: ok
"""A streaming frame server: a ring of download slots kept in flight, consumed
through an async generator, with a shutdown path that drains what is still in the ring.

Each slot owns a device frame and a pinned landing buffer. Frame ``seq`` is rendered
into slot ``seq % depth`` and downloaded; the generator collects the oldest slot before
it is reused. A client may stop early: the generator is closed at its ``yield`` and
``shutdown()`` completes the downloads still in the ring.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def render(a: Any, seq: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = seq + (i % 4)


def expected(seq: int, n: int) -> float:
    return float(seq * n + sum(i % 4 for i in range(n)))


@dataclass
class RingSlot:
    dev: nx.DeviceArray[nx.Owned, np.float32]
    buf: Host | None
    inflight: nx.Transfer[Host] | None = None
    seq: int = -1


class FrameStreamer:
    def __init__(self, depth: int, n: int) -> None:
        self.n = n
        self.depth = depth
        self.stream = nx.stream()
        self.ring = [
            RingSlot(nx.device_array(n, np.float32), nx.pinned_array(n, np.float32))
            for _ in range(depth)
        ]
        self.submitted = 0

    def _submit(self, seq: int) -> None:
        slot = self.ring[seq % self.depth]
        buf, slot.buf = slot.buf, None
        assert buf is not None, f"slot {seq % self.depth} reused while in flight"
        self.stream.launch(render, 1, 16, slot.dev, float(seq))
        slot.inflight = self.stream.download(slot.dev, into=buf)
        slot.seq = seq
        self.submitted += 1

    async def frames(self, count: int) -> AsyncGenerator[tuple[int, float], None]:
        for seq in range(count + self.depth):
            slot = self.ring[seq % self.depth]
            if slot.inflight is not None:
                done, slot.inflight = slot.inflight, None
                buf = await done
                slot.buf = buf
                yield slot.seq, float(buf.read().sum(dtype=np.float64))
            if seq < count:
                self._submit(seq)

    async def shutdown(self) -> list[tuple[int, float]]:
        tail: list[tuple[int, float]] = []
        for slot in sorted(self.ring, key=lambda s: s.seq):
            if slot.inflight is not None:
                buf = await slot.inflight
                slot.inflight = None
                tail.append((slot.seq, float(buf.read().sum(dtype=np.float64))))
                slot.buf = buf
        self.stream.close()
        return tail


async def client(streamer: FrameStreamer, want: int, stop_after: int) -> list[tuple[int, float]]:
    got: list[tuple[int, float]] = []
    async with contextlib.aclosing(streamer.frames(want)) as frames:
        async for seq, total in frames:
            got.append((seq, total))
            await asyncio.sleep(0)  # let the other connections run
            if seq == stop_after:
                break  # the client hangs up; frames still in the ring are drained below
    return got


async def run(streamer: FrameStreamer, n: int) -> None:
    got = await client(streamer, want=12, stop_after=6)
    tail = await streamer.shutdown()
    assert [s for s, _ in got] == list(range(7)), got
    assert [s for s, _ in tail] == [7, 8], tail
    for seq, total in got + tail:
        assert total == expected(seq, n), f"frame {seq}: {total}"
    assert streamer.submitted == 9
    print(f"frame_ring: {len(got)} frames streamed, {len(tail)} drained at shutdown")


if __name__ == "__main__":
    asyncio.run(run(FrameStreamer(depth=3, n=128), n=128))
