# A renderer: draw() writes self.frame, submit() moves it into an upload, present()
# waits and rebinds it. Every draw() comes after the previous present(): correct.
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Renderer:
    def __init__(self, width: int, height: int) -> None:
        self.s = nx.stream()
        self.frame = nx.pinned_array((height, width), np.float32)
        self.target = nx.device_array((height, width), np.float32)
        self.inflight: nx.Transfer[Host] | None = None
        self.frames = 0

    def draw(self, t: float) -> None:
        with self.frame.write() as px:
            px[:] = t
            px[0, 0] = self.frames

    def submit(self) -> None:
        self.inflight = self.s.upload(self.frame, to=self.target)
        self.frames += 1

    def present(self) -> None:
        if self.inflight is None:
            return
        self.frame = self.inflight.wait()
        self.inflight = None

    def shutdown(self) -> None:
        self.present()
        self.s.close()


def render(n: int) -> int:
    r = Renderer(16, 8)
    for t in range(n):
        r.draw(t / n)
        r.submit()
        r.present()
    r.shutdown()
    return r.frames


render(3)
