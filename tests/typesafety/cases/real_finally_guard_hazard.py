# An upload that happens only when the buffer is dirty, with the take-back in a finally;
# the code inside the try reads the buffer after the (conditional) upload.
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Mirror:
    def __init__(self, n: int) -> None:
        self.s = nx.stream()
        self.host = nx.pinned_array(n, np.float32)
        self.dev = nx.device_array(n, np.float32)
        self.dirty = False

    def set(self, value: float) -> None:
        with self.host.write() as a:
            a[:] = value
        self.dirty = True

    def sync(self) -> float:
        host = self.host
        t: nx.Transfer[Host] | None = None
        try:
            if self.dirty:
                t = self.s.upload(host, to=self.dev)
            first = float(host.read()[0])  # E: use-after-transfer "host" "may be used" "host = t.wait()"
        finally:
            if t is not None:
                host = t.wait()
        self.host = host
        self.dirty = False
        return first


def main() -> float:
    m = Mirror(16)
    total = m.sync()
    m.set(3.0)
    total += m.sync()
    m.s.close()
    return total


main()
