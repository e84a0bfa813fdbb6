# A renderer whose loop forgot present(): the second draw() writes self.frame while
# the previous frame's upload (started by submit()) may still read it.
# XFAIL: miss: a method (draw()) that writes self.frame called again, in a loop, after another method (submit()) moved self.frame
# RUN: raises UseAfterTransferError [via-call]
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
        r.draw(t / n)  # E: use-after-transfer "frame" "draw()"
        r.submit()
    r.shutdown()
    return r.frames


render(3)
