# RUN: ok
# A calibration loop mixing the session-13 features correctly: lends through a property
# that end before each write, a @contextmanager lending a *parameter* (the reference
# frame) while this object's frame is written, a coroutine whose move is taken back in
# try/finally, and a method writing another attribute called inside a lend.
from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
View = nx.PinnedArray[nx.Lent, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 16


class Calibrator:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.dev = nx.device_array(N, np.float32)
        self._frame: Host = nx.pinned_copy(np.ones(N, np.float32))
        self._log: Host = nx.pinned_array(N, np.float32)

    @property
    def frame(self) -> Host:
        return self._frame

    @contextmanager
    def against(self, ref: Host) -> Iterator[View]:
        with ref.lend() as v:
            yield v

    def note(self, value: float) -> None:
        with self._log.write() as a:
            a[:] = value

    async def push(self) -> None:
        self._frame = await self.s.upload(self._frame, to=self.dev)

    async def calibrate(self, ref: Host, rounds: int) -> float:
        gain = 1.0
        for _ in range(rounds):
            with self.frame.lend() as cur:
                level = float(cur.read().mean())
                self.note(level)  # writes _log, not the lent _frame
            with self._frame.write() as a:  # the lend above has ended
                a *= 0.5
            with self.against(ref) as r:  # lends ref, not _frame
                with self._frame.write() as a:
                    a += r.read()
            try:
                await self.push()
            finally:
                gain *= 0.9
        return gain

    def close(self) -> None:
        self._frame.free()
        self._log.free()
        self.dev.free()
        self.s.close()


async def run_once(s: nx.Stream[nx.Lent], host: Host, dev: Dev) -> Host:
    try:
        host = await s.upload(host, to=dev)
    finally:
        await asyncio.sleep(0)
    return host


async def main() -> None:
    c = Calibrator()
    ref = nx.pinned_copy(np.full(N, 0.25, np.float32))
    print(await c.calibrate(ref, 3))
    ref = await run_once(c.s, ref, c.dev)
    ref.free()
    c.close()


asyncio.run(main())
