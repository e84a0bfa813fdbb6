# XFAIL: false positive (summaries ignore arguments): tick(stage) moves self.host only if stage; p.tick(True) after p.tick(False) is reported at line 36 as a read of a buffer the earlier call may have moved
# (Found by an adversarial review; the program runs clean.)
"""A method that moves self.host only when asked (flag parameter), called with False in a lend."""
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Prefetcher:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.dev = nx.device_array(8, np.float32)
        self.host = nx.pinned_array(8, np.float32)
        self.pending: nx.Transfer[Host] | None = None

    def tick(self, stage: bool) -> int:
        if stage:
            self.pending = self.s.upload(self.host, to=self.dev)
        return 1

    def finish(self) -> None:
        if self.pending is not None:
            self.host = self.pending.wait()
            self.pending = None


def main() -> None:
    p = Prefetcher()
    with p.host.lend() as v:
        p.tick(False)
        print(float(v.read().sum()))
    p.tick(True)
    p.finish()
    p.s.close()


if __name__ == "__main__":
    main()
