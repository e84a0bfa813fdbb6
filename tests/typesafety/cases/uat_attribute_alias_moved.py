# RUN: raises UseAfterTransferError via-call
# ``self.last = host`` keeps a second reference to the buffer the method then moves into
# an upload: the attribute is moved with it (wait() gives back a new handle, and the old
# one stays dead), so report(), called after stage(), reads a moved buffer.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Loader:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.dev = nx.device_array(8, np.float32)
        self.last: Host | None = None
        self.inflight: list[nx.Transfer[Host]] = []

    def stage(self) -> None:
        host = nx.pinned_array(8, np.float32)
        self.last = host
        self.inflight.append(self.s.upload(host, to=self.dev))

    def report(self) -> float:
        assert self.last is not None
        return float(self.last.read()[0])

    def close(self) -> None:
        for t in self.inflight:
            t.wait().free()
        self.inflight.clear()
        self.dev.free()
        self.s.close()


def main() -> None:
    ld = Loader()
    ld.stage()
    print(ld.report())  # E: use-after-transfer
    ld.close()


main()
