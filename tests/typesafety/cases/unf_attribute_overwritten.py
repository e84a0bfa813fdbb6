# RUN: warns ResourceWarning anywhere
# A transfer stored into an attribute, then the attribute overwritten before any code of
# the program ran that could complete it (only numbaxfer's own calls in between): the
# first transfer is dropped unfinished. "may" in a loop (the first iteration stores
# into an empty attribute).
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float64]


@dataclass
class Monitor:
    pending: nx.Transfer[Host] | None = None
    step: int = 0


def twice(mon: Monitor) -> None:
    s = nx.stream()
    acc = nx.device_array(4, np.float64)
    mon.pending = s.download(acc, into=nx.pinned_array(4, np.float64))
    s.synchronize()  # numbaxfer's own: no code of the program runs
    mon.pending = s.download(acc, into=nx.pinned_array(4, np.float64))  # E: unfinished-transfer "Transfer \"mon.pending\" (started at line 26 by Stream.download()) is dropped here without being completed"


def in_loop(mon: Monitor, steps: int) -> None:
    s = nx.stream()
    acc = nx.device_array(4, np.float64)
    for step in range(steps):
        if step % 3 == 0:
            mon.pending, mon.step = s.download(acc, into=nx.pinned_array(4, np.float64)), step  # E: unfinished-transfer "may be dropped here"


if __name__ == "__main__":
    twice(Monitor())
