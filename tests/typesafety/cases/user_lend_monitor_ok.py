# A monitor that inspects pinned buffers through lends: check() lends the buffer,
# computes statistics from the lent view and keeps only the numbers (and the view's
# label for the report), so the owner can be written and uploaded again afterwards.
# RUN: ok
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

    def summarize(self, view: View) -> Stats:
        data = view.read()
        return Stats(view.label, float(data.mean()), float(np.abs(data).max()))

    def check(self, host: Host) -> Stats:
        with host.lend() as view:
            stats = self.summarize(view)
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
    assert [h.mean for h in mon.history] == [0.0, 1.0, 2.0]
    return mon.history[-1].mean


main()
