# RUN: ok
"""Mapped progress counters for a long-running batch scorer.

A ProgressTracker owns a small mapped int32 array, one counter per worker block. The
scoring kernel bumps its block's counter as it goes; the tracker polls the live
values with ``racy_peek()`` (racy by design, for a progress bar) and takes the array
back with ``wait()`` to read the final, exact counts.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Counters = nx.MappedArray[nx.Owned, np.int32]


@cuda.jit
def score_rows(x: Any, out: Any, progress: Any) -> None:
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.size, stride):
        out[i] = x[i] * x[i] + 1.0
        cuda.atomic.add(progress, cuda.blockIdx.x, 1)


class ProgressTracker:
    def __init__(self, blocks: int) -> None:
        self.counters: Counters = nx.mapped_array(blocks, np.int32)
        with self.counters.write() as c:
            c[:] = 0
        self.mapping: nx.Mapping[np.int32] | None = None
        self.snapshots: list[int] = []

    def attach(self, s: nx.Stream[nx.Owned]) -> Any:
        self.mapping = s.map(self.counters)
        return self.mapping.device

    def poll(self) -> None:
        assert self.mapping is not None
        self.snapshots.append(int(self.mapping.racy_peek().sum()))

    def finish(self) -> int:
        assert self.mapping is not None
        self.counters = self.mapping.wait()
        self.mapping = None
        return int(self.counters.read().sum())


def main() -> None:
    n, blocks, threads = 2048, 4, 64
    s = nx.stream()
    x_host = nx.pinned_copy(np.linspace(0.0, 1.0, n, dtype=np.float32))
    x_dev = nx.device_array(n, np.float32)
    out_dev = nx.device_array(n, np.float32)
    x_host = s.upload(x_host, to=x_dev).wait()

    tracker = ProgressTracker(blocks)
    progress_dev = tracker.attach(s)
    s.launch(score_rows, blocks, threads, x_dev, out_dev, progress_dev)
    tracker.poll()
    done = tracker.finish()

    out_host = nx.pinned_array(n, np.float32)
    out_host = s.download(out_dev, into=out_host).wait()
    s.close()
    assert done == n, done
    expected = x_host.read() ** 2 + 1.0
    assert np.allclose(out_host.read(), expected)
    print("mapped_progress ok", done, tracker.snapshots)


if __name__ == "__main__":
    main()
