# A prefetcher class whose caller reads the buffer, directly and through a method,
# between start() (which moved self.host into an upload) and finish().
# XFAIL: miss: self.host moved by a method (start()) and read by the caller through the object (pf.host) and through another method (checksum()) before finish()
# RUN: raises UseAfterTransferError [via-call]
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Prefetcher:
    """Uploads the next batch while the caller works on something else."""

    def __init__(self, n: int) -> None:
        self.s = nx.stream()
        self.host = nx.pinned_array(n, np.float32)
        self.dev = nx.device_array(n, np.float32)
        self.pending: nx.Transfer[Host] | None = None

    def fill(self, value: float) -> None:
        with self.host.write() as a:
            a[:] = value

    def start(self) -> None:
        self.pending = self.s.upload(self.host, to=self.dev)

    def finish(self) -> None:
        if self.pending is not None:
            self.host = self.pending.wait()
            self.pending = None

    def checksum(self) -> float:
        return float(self.host.read().sum())

    def close(self) -> None:
        self.finish()
        self.s.close()


def main() -> float:
    pf = Prefetcher(64)
    pf.fill(1.0)
    pf.start()
    first = float(pf.host.read()[0])  # E: use-after-transfer "pf.host"
    total = pf.checksum()  # E: use-after-transfer "host" "checksum()"
    pf.finish()
    pf.close()
    return first + total


main()
