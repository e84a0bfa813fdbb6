# RUN: ok
# self.finish() completes and clears self.pending before the close; a defensive wait after the close never runs. (Found by an adversarial review.)
"""The pending attribute rebound to a transfer on another stream before self.s is closed."""
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Worker:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.aux = nx.stream()
        self.dev = nx.device_array(8, np.float32)
        self.out = nx.pinned_array(8, np.float32)
        self.pending: nx.Transfer[Host] | None = None

    def step(self) -> None:
        self.pending = self.s.download(self.dev, into=self.out)

    def finish(self) -> None:
        if self.pending is not None:
            self.out = self.pending.wait()
            self.pending = None

    def migrate(self) -> None:
        self.finish()
        self.s.close()
        if self.pending is not None:  # finish() cleared it
            self.out = self.pending.wait()
            self.pending = None
        self.s = self.aux


def main() -> None:
    w = Worker()
    w.step()
    w.migrate()
    w.step()
    w.finish()
    w.s.close()


if __name__ == "__main__":
    main()
