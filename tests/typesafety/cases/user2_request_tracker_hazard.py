# XFAIL: miss, line 57: Tracker.poll() waits the done transfers of self.pending (dict .items() loop) without removing them, and flush() waits every one again; completion of dict-held transfers across methods is not tracked.
# A request tracker for an inference service: each request's result download is kept in
# a dict by request id; poll() completes the ones that are done, flush() completes the
# rest at shutdown. BUG: poll() reads the finished transfers without removing them, so
# flush() waits them a second time.
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N = 4


@cuda.jit
def infer(x: Any, y: Any) -> None:
    i = cuda.grid(1)
    if i < x.size:
        y[i] = 10.0 * x[i]


@dataclass
class Tracker:
    pending: dict[str, nx.Transfer[Host]] = field(default_factory=dict)
    answers: dict[str, float] = field(default_factory=dict)

    def submit(self, rid: str, down: nx.Consumed[nx.Transfer[Host]]) -> None:
        self.pending[rid] = down

    def poll(self) -> None:
        for rid, t in self.pending.items():
            if t.done() and rid not in self.answers:
                self.answers[rid] = float(t.wait().read().sum())

    def flush(self) -> None:
        for rid, t in self.pending.items():
            self.answers[rid] = float(t.wait().read().sum())
        self.pending.clear()


def main() -> None:
    s = nx.stream()
    x, y = nx.device_array(N, np.float32), nx.device_array(N, np.float32)
    tracker = Tracker()
    for k, rid in enumerate(["a", "b", "c"]):
        s.upload_staged(np.full(N, float(k), dtype=np.float32), to=x)
        s.launch(infer, 1, N, x, y)
        tracker.submit(rid, s.download(y, into=nx.pinned_array(N, np.float32)))
        if k == 1:
            tracker.poll()
    tracker.flush()  # E: transfer-completed-twice
    s.close()
    assert tracker.answers == {"a": 0.0, "b": 40.0, "c": 80.0}, tracker.answers


main()
