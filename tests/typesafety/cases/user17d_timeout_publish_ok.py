# RUN: ok
"""A telemetry publisher: each sensor's device accumulator is downloaded and sent to a
peer, under a per-publish timeout (``asyncio.wait_for``).

The download is enqueued first so that it overlaps the wait for the peer to become
ready; a peer that is not ready in time cancels the publish. On cancellation the
download still has to be completed, and the dashboard wants the stale maximum.
"""

from __future__ import annotations

import asyncio
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def accumulate(a: Any, x: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] += x * (i + 1)


class Peer:
    def __init__(self, ready: set[int]) -> None:
        self._events: dict[int, asyncio.Event] = {}
        self._ready = ready
        self.sent: dict[int, float] = {}

    async def wait_ready(self, sensor: int) -> None:
        event = self._events.setdefault(sensor, asyncio.Event())
        if sensor in self._ready:
            event.set()
        await event.wait()  # never set for a peer that is down

    async def send(self, sensor: int, value: float) -> None:
        await asyncio.sleep(0)
        self.sent[sensor] = value


class Publisher:
    def __init__(self, sensors: int, n: int, peer: Peer) -> None:
        self.stream = nx.stream()
        self.devs = [nx.device_array(n, np.float32) for _ in range(sensors)]
        self.landing: dict[int, Host] = {k: nx.pinned_array(n, np.float32) for k in range(sensors)}
        self.peer = peer
        self.stale: dict[int, float] = {}
        self.timeouts = 0
        zero = nx.pinned_copy(np.zeros(n, dtype=np.float32))
        for dev in self.devs:
            zero = self.stream.upload(zero, to=dev).wait()
        zero.free()

    def tick(self, x: float) -> None:
        for dev in self.devs:
            self.stream.launch(accumulate, 1, 16, dev, x)

    async def publish(self, sensor: int) -> float:
        buf = self.landing.pop(sensor)
        down = self.stream.download(self.devs[sensor], into=buf)
        timed_out = False
        try:
            await self.peer.wait_ready(sensor)  # the timeout lands here
            buf = await down
            value = float(buf.read().max())
            await self.peer.send(sensor, value)
            return value
        except asyncio.CancelledError:
            timed_out = True
            self.timeouts += 1
            raise
        finally:
            if not down.completed:
                buf = down.wait()
            if timed_out:
                self.stale[sensor] = float(buf.read().max())
            self.landing[sensor] = buf

    def close(self) -> None:
        self.stream.close()
        for buf in self.landing.values():
            buf.free()


async def publish_all(pub: Publisher, sensors: int, timeout: float) -> dict[int, float | None]:
    async def one(k: int) -> float | None:
        try:
            return await asyncio.wait_for(pub.publish(k), timeout)
        except TimeoutError:
            return None

    return dict(zip(range(sensors), await asyncio.gather(*(one(k) for k in range(sensors)))))


def main() -> None:
    sensors, n = 4, 32
    peer = Peer(ready={0, 2, 3})
    pub = Publisher(sensors, n, peer)
    try:
        for step in range(1, 4):
            pub.tick(float(step))
        out = asyncio.run(publish_all(pub, sensors, timeout=0.05))
    finally:
        pub.close()
    top = float(6 * n)  # 1 + 2 + 3 ticks, times the largest (i + 1)
    assert out == {0: top, 1: None, 2: top, 3: top}, out
    assert peer.sent == {0: top, 2: top, 3: top}, peer.sent
    assert pub.stale == {1: top} and pub.timeouts == 1, (pub.stale, pub.timeouts)
    print(f"timeout_publish: {len(peer.sent)} published, {pub.timeouts} timed out")


if __name__ == "__main__":
    main()
