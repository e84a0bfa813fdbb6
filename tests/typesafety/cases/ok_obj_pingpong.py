# Ping-pong: step() takes back the buffer whose transfer is pending (if any), then
# uploads it again; the other buffer is free in between. Both buffers are restored
# and moved again by the same method: calls of step() and of peek() after drain()
# check clean.
# RUN: ok
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class PingPong:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.dev = nx.device_array(8, np.float32)
        self.a = nx.pinned_array(8, np.float32)
        self.b = nx.pinned_array(8, np.float32)
        self.ta: nx.Transfer[Host] | None = None
        self.tb: nx.Transfer[Host] | None = None

    def step_a(self) -> None:
        if self.tb is not None:
            self.b = self.tb.wait()
            self.tb = None
        with self.b.write() as w:
            w[:] = 2.0
        self.ta = self.s.upload(self.a, to=self.dev)

    def step_b(self) -> None:
        if self.ta is not None:
            self.a = self.ta.wait()
            self.ta = None
        with self.a.write() as w:
            w[:] = 1.0
        self.tb = self.s.upload(self.b, to=self.dev)

    def drain(self) -> None:
        if self.ta is not None:
            self.a = self.ta.wait()
            self.ta = None
        if self.tb is not None:
            self.b = self.tb.wait()
            self.tb = None

    def peek(self) -> float:
        return float(self.a.read()[0] + self.b.read()[0])


pp = PingPong()
for _ in range(3):
    pp.step_a()
    pp.step_b()
pp.drain()
print(pp.peek())
