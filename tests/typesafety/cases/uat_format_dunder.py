# RUN: raises UseAfterTransferError via-call
# Formatting an object runs its class's __str__ or __repr__: print(obj) and f"{obj}"
# ask for __str__, f"{obj!r}" and repr(obj) for __repr__. Here __repr__ reads the host
# buffer that record() moved into a download.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Metrics:
    def __init__(self, s: nx.Stream[nx.Owned]) -> None:
        self.s = s
        self.host: Host = nx.pinned_array(4, np.float32)
        self.dev = nx.device_array(4, np.float32)
        self.pending: nx.Transfer[Host] | None = None

    def record(self) -> None:
        self.pending = self.s.download(self.dev, into=self.host)

    def sync(self) -> None:
        if self.pending is not None:
            self.host = self.pending.wait()
            self.pending = None

    def __str__(self) -> str:
        return "Metrics(pending)" if self.pending is not None else "Metrics(ready)"

    def __repr__(self) -> str:
        return f"Metrics(last={self.host.read()[0]})"


s = nx.stream()
m = Metrics(s)
m.record()
print(m)  # __str__ reads no buffer
print(f"{m}")
print(f"{m!r}")  # E: use-after-transfer "m.host"
m.sync()
s.close()
