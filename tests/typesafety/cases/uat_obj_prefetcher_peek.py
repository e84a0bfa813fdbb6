# peek() reads self.host without taking it back: after prefetch() that is a use of the
# moved buffer, reported where peek() is called (get() shows the class's protocol).
# RUN: raises UseAfterTransferError via-call
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

    def peek(self) -> float:
        return float(self.host.read()[0])


p = Prefetcher()
p.peek()
p.prefetch()
p.peek()  # E: use-after-transfer "\"p.host\" (read by \"Prefetcher.peek()\", called here) is used" "line 19 in Prefetcher.prefetch()" "\"p.host = p.pending.wait()\""
p.get()
