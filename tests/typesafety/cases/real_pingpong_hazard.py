# A double-buffer ping-pong class whose caller reads the front buffer right after
# step() swapped it and moved it into an upload, without flush().
# XFAIL: miss: self.front moved by a method (step(): tuple swap, then upload) and read through the object (pp.front) after the call
# RUN: raises UseAfterTransferError [via-call]
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class PingPong:
    def __init__(self, n: int) -> None:
        self.s = nx.stream()
        self.front = nx.pinned_array(n, np.float32)
        self.back = nx.pinned_array(n, np.float32)
        self.dev = nx.device_array(n, np.float32)
        self.up: nx.Transfer[Host] | None = None

    def step(self, value: float) -> None:
        with self.back.write() as a:  # the back buffer is home: no copy uses it
            a[:] = value
        if self.up is not None:
            self.front = self.up.wait()
            self.up = None
        self.front, self.back = self.back, self.front
        self.up = self.s.upload(self.front, to=self.dev)

    def flush(self) -> None:
        if self.up is not None:
            self.front = self.up.wait()
            self.up = None


def main() -> float:
    pp = PingPong(64)
    for k in range(5):
        pp.step(float(k))
    latest = float(pp.front.read()[0])  # E: use-after-transfer "pp.front"
    pp.flush()
    pp.s.close()
    return latest


main()
