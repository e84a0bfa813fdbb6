# A monitor that inspects pinned buffers through lends: check() lends the buffer,
# computes statistics from the lent view and keeps only the numbers (and the view's
# label for the report), so the owner can be written and uploaded again afterwards.
# Bug: the monitor keeps the lent view itself (to "re-check it later"): the view
# outlives its lend block and is read by last_peak() after the owner was rewritten.
# (No RUN header: the runtime raises BorrowError at the read inside last_peak(), called
# from a line no checker flags; the store that lets the view escape is what mypy reports.)
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
View = nx.PinnedArray[nx.Lent, np.float32]


@dataclass
class Stats:
    label: str
    mean: float
    peak: float


@dataclass
class Monitor:
    history: list[Stats] = field(default_factory=list)
    last: View | None = None

    def last_peak(self) -> float:
        assert self.last is not None
        return float(np.abs(self.last.read()).max())

    def summarize(self, view: View) -> Stats:
        data = view.read()
        return Stats(view.label, float(data.mean()), float(np.abs(data).max()))

    def check(self, host: Host) -> Stats:
        with host.lend() as view:
            stats = self.summarize(view)
            self.last = view  # E: lend-escape "view"
        self.history.append(stats)
        return stats


def main(n: int = 16, steps: int = 3) -> float:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    host = nx.pinned_array(n, np.float32)
    mon = Monitor()
    for k in range(steps):
        with host.write() as a:
            a[:] = float(k)
        st = mon.check(host)
        if st.peak > 10.0:
            continue
        host = s.upload(host, to=dev).wait()
    s.close()
    print(mon.last_peak())
    assert [h.mean for h in mon.history] == [0.0, 1.0, 2.0]
    return mon.history[-1].mean


main()
