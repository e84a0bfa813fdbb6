# RUN: ok
# An attribute holding a transfer overwritten after its wait, after code of the program
# ran that may complete it (a method, a function given the object), or on a path where
# it was taken out: no report.
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float64]


@dataclass
class Monitor:
    pending: nx.Transfer[Host] | None = None

    def report(self) -> Host | None:
        if self.pending is None:
            return None
        snap = self.pending.wait()
        self.pending = None
        return snap


def settle(mon: Monitor) -> None:
    if mon.pending is not None:
        mon.pending.wait().free()
        mon.pending = None


def main() -> None:
    s = nx.stream()
    acc = nx.device_array(4, np.float64)
    mon = Monitor()
    snap: Host | None = nx.pinned_array(4, np.float64)
    for step in range(6):
        if step % 2 == 0:
            if snap is None:
                snap = mon.report()
            assert snap is not None
            mon.pending = s.download(acc, into=snap)
            snap = None
    settle(mon)
    mon.pending = s.download(acc, into=nx.pinned_array(4, np.float64))
    t = mon.pending
    mon.pending = None
    t.wait().free()
    s.close()


if __name__ == "__main__":
    main()
