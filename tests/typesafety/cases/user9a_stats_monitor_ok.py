# RUN: ok
"""Monitor a running reduction: every few steps, download the partial sums for a log line."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float64]
Dev = nx.DeviceArray[nx.Owned, np.float64]


@cuda.jit
def add_batch(acc: Any, k: float) -> None:
    for i in range(cuda.grid(1), acc.size, cuda.gridsize(1)):
        acc[i] += k


@dataclass
class Monitor:
    every: int
    lines: list[str] = field(default_factory=list)
    pending: nx.Transfer[Host] | None = None
    pending_step: int = -1

    def report(self) -> Host | None:
        if self.pending is None:
            return None
        snap = self.pending.wait()
        self.pending = None
        self.lines.append(f"step {self.pending_step}: total {snap.read().sum():.1f}")
        return snap


def run(steps: int, n: int, mon: Monitor) -> float:
    s = nx.stream()
    acc: Dev = nx.device_array(n, np.float64)
    s.upload_staged(np.zeros(n, np.float64), to=acc)
    snap: Host | None = nx.pinned_array(n, np.float64)
    for step in range(1, steps + 1):
        s.launch(add_batch, 1, 32, acc, float(step))
        if step % mon.every == 0:
            if snap is None:
                snap = mon.report()
            assert snap is not None
            mon.pending, mon.pending_step = s.download(acc, into=snap), step
            snap = None
    if snap is None:
        snap = mon.report()
    assert snap is not None
    snap = s.download(acc, into=snap).wait()
    s.close()
    return float(snap.read().sum())


def main() -> None:
    mon = Monitor(every=3)
    total = run(10, 16, mon)
    assert total == 16 * sum(range(11)), total
    assert mon.lines and mon.lines[-1].startswith("step 9"), mon.lines
    print("\n".join(mon.lines))


if __name__ == "__main__":
    main()
