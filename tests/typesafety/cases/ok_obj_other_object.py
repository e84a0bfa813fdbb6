# A move of a.buf by a method says nothing about another object b of the class.
# RUN: ok
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Stager:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.buf = nx.pinned_array(8, np.float32)
        self.dev = nx.device_array(8, np.float32)
        self.up: nx.Transfer[Host] | None = None

    def start(self) -> None:
        self.up = self.s.upload(self.buf, to=self.dev)

    def finish(self) -> None:
        assert self.up is not None
        self.buf = self.up.wait()
        self.up = None

    def peek(self) -> float:
        return float(self.buf.read()[0])


a = Stager()
b = Stager()
a.start()
b.peek()
print(b.buf.read()[0])
a.finish()
a.peek()
