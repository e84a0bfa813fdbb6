# A results collector: every step's download goes into a list, and all of them are waited
# at the end (one host wait per transfer, after all the work is queued); every other step
# also snapshots the state into a checkpoint buffer. BUG: the checkpoint download is
# kept in a local that the next odd step overwrites: it is never waited.
# (no RUN header: the run time refuses s.close() with StreamClosedError, on a later line)
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N = 8


@cuda.jit
def advance(state: Any, dt: float) -> None:
    i = cuda.grid(1)
    if i < state.size:
        state[i] += dt


@dataclass
class Collector:
    results: list[nx.Transfer[Host]] = field(default_factory=list)
    checkpoints: list[nx.Transfer[Host]] = field(default_factory=list)

    def finish(self) -> tuple[list[float], list[float]]:
        sums = [float(t.wait().read().sum()) for t in self.results]
        marks = [float(t.wait().read()[0]) for t in self.checkpoints]
        self.results.clear()
        self.checkpoints.clear()
        return sums, marks


def simulate(steps: int) -> tuple[list[float], list[float]]:
    s = nx.stream()
    state = nx.device_array(N, np.float32)
    s.upload_staged(np.zeros(N, dtype=np.float32), to=state).wait()
    col = Collector()
    ckpt: nx.Transfer[Host] | None = None
    for step in range(steps):
        s.launch(advance, 1, N, state, 1.0)
        col.results.append(s.download(state, into=nx.pinned_array(N, np.float32)))
        if step % 2 == 1:
            snap = nx.pinned_array(N, np.float32)
            ckpt = s.download(state, into=snap)  # E: unfinished-transfer "ckpt" "dropped" # E: unfinished-transfer "ckpt" "unfinished"
    sums, marks = col.finish()
    s.close()  # E: unfinished-transfer "is closed"
    return sums, marks


def main() -> None:
    sums, marks = simulate(4)
    assert sums == [8.0, 16.0, 24.0, 32.0], sums
    assert marks == [2.0, 4.0], marks


main()
