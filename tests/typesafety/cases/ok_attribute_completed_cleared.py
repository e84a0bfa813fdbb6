# RUN: ok
# A method completes the transfer an attribute holds and clears the attribute; another
# method then finds nothing to complete.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Fetcher:
    def __init__(self, s: nx.Stream[nx.Owned]) -> None:
        self.s = s
        self.dev = nx.device_array(4, np.float32)
        self.out: Host = nx.pinned_array(4, np.float32)
        self.pending: nx.Transfer[Host] | None = None

    def start(self) -> None:
        self.pending = self.s.download(self.dev, into=self.out)

    def peek(self) -> float:
        if self.pending is not None:
            self.out = self.pending.wait()
            self.pending = None
        return float(self.out.read().size)

    def finish(self) -> None:
        if self.pending is not None:
            self.out = self.pending.wait()
            self.pending = None


s = nx.stream()
f = Fetcher(s)
f.start()
print(f.peek())
f.finish()
s.close()
