# RUN: ok
# Closing an object's stream after completing what its attributes hold, or completing
# an attribute the class does not fill from that stream: no report.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Worker:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.aux = nx.stream()
        self.dev = nx.device_array(8, np.float32)
        self.out: Host | None = nx.pinned_array(8, np.float32)
        self.side: Host | None = nx.pinned_array(8, np.float32)
        self.pending: nx.Transfer[Host] | None = None
        self.other: nx.Transfer[Host] | None = None

    def step(self) -> None:
        if self.pending is not None:
            self.out = self.pending.wait()
        out = self.out
        assert out is not None
        self.out = None
        self.pending = self.s.download(self.dev, into=out)

    def side_step(self) -> None:
        side = self.side
        assert side is not None
        self.side = None
        self.other = self.aux.download(self.dev, into=side)

    def shutdown(self) -> None:
        if self.pending is not None:
            self.out = self.pending.wait()
            self.pending = None
        self.s.close()
        if self.other is not None:  # started on self.aux, not on self.s
            self.side = self.other.wait()
            self.other = None
        self.aux.close()


def main() -> None:
    w = Worker()
    w.step()
    w.side_step()
    w.step()
    w.shutdown()


if __name__ == "__main__":
    main()
