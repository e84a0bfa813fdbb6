# A prefetcher: prefetch() moves self.host into a transfer kept in self.pending, get()
# takes it back before reading. Another method restores self.host, so its callers are
# checked, not its body; every call here respects the protocol.
# RUN: ok
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Prefetcher:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.host = nx.pinned_array(8, np.float32)
        self.dev = nx.device_array(8, np.float32)
        self.pending: nx.Transfer[Host] | None = None

    def prefetch(self) -> None:
        self.pending = self.s.upload(self.host, to=self.dev)

    def get(self) -> float:
        if self.pending is not None:
            self.host = self.pending.wait()
            self.pending = None
        return float(self.host.read()[0])


p = Prefetcher()
p.prefetch()
x = p.get()
p.prefetch()
y = p.get() + x
