# A registry of completion callbacks: downloads are registered with a callback, poll()
# runs the callbacks of the transfers that are done (non-blocking), flush() completes
# the rest. A callback receives the buffer wait() gave back.
# RUN: ok
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Callback = Callable[[Host], None]


@cuda.jit
def fill(a: Any, value: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = value


class Completions:
    def __init__(self) -> None:
        self.pending: list[tuple[nx.Transfer[Host], Callback]] = []

    def on_complete(self, transfer: nx.Transfer[Host], callback: Callback) -> None:
        self.pending.append((transfer, callback))

    def poll(self) -> int:
        still: list[tuple[nx.Transfer[Host], Callback]] = []
        ran = 0
        for transfer, callback in self.pending:
            if transfer.done():
                callback(transfer.wait())
                ran += 1
            else:
                still.append((transfer, callback))
        self.pending = still
        return ran

    def flush(self) -> None:
        for transfer, callback in self.pending:
            callback(transfer.wait())
        self.pending = []


def main(n: int = 32) -> None:
    s = nx.stream()
    registry = Completions()
    results: dict[str, float] = {}
    devs = {name: nx.device_array(n, np.float32) for name in ("a", "b", "c")}
    for k, (name, dev) in enumerate(devs.items()):
        s.launch(fill, 1, 32, dev, float(k))
        out = nx.pinned_array(n, np.float32)

        def store(buf: Host, name: str = name) -> None:
            results[name] = float(buf.read().sum())

        registry.on_complete(s.download(dev, into=out), store)
    registry.poll()
    registry.flush()
    s.close()
    assert results == {"a": 0.0, "b": float(n), "c": 2.0 * n}, results


if __name__ == "__main__":
    main()
