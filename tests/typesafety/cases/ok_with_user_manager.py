# RUN: ok
# A context-manager class of the program's: __enter__ uploads the buffer it holds,
# __exit__ takes it back. After the block the buffer is the object's again.
from __future__ import annotations

from types import TracebackType

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


class Staged:
    def __init__(self, s: nx.Stream[nx.Owned], host: Host) -> None:
        self.s = s
        self.host = host
        self.dev: Dev = nx.device_array(host.shape, np.float32)
        self.pending: nx.Transfer[Host] | None = None

    def __enter__(self) -> Staged:
        self.pending = self.s.upload(self.host, to=self.dev)
        return self

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self.pending is not None:
            self.host = self.pending.wait()
            self.pending = None


s = nx.stream()
stage = Staged(s, nx.pinned_copy(np.ones(8, np.float32)))
with stage:
    s.synchronize()
print(float(stage.host.read().sum()))
with Staged(s, nx.pinned_copy(np.ones(8, np.float32))) as other:
    print(other.dev.shape)
print(float(other.host.read().sum()))
s.close()
