# A double-buffer ping-pong class: fill the back buffer while the front one uploads,
# wait for the front, swap, upload the new front. The caller reads only after flush().
# RUN: ok
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
    pp.flush()
    latest = float(pp.front.read()[0])
    pp.s.close()
    return latest


main()
