# A prefetcher class: start() uploads self.host, finish() waits and rebinds it. The
# caller fills the buffer only between finish() and the next start(): correct.
# RUN: ok
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
    total = 0.0
    for step in range(3):
        pf.fill(float(step))
        pf.start()
        total += step  # other work while the copy runs
        pf.finish()
        total += pf.checksum()
    pf.close()
    return total


main()
