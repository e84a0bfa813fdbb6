# RUN: raises UseAfterTransferError
# XFAIL: miss (line 76): a second wait() on `last` after registry.poll(block=True) completed it through the registry's list of (transfer, callback) entries; a completion made by a method over a container of another object is not followed
# Planted bug: main keeps its own reference to the last download and waits it again, though the registry's poll(block=True) already completed it.
"""A completion registry: downloads are registered with a callback; poll() runs the
callback of every finished download with the buffer wait() handed back."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
Callback = Callable[[Host], None]


@cuda.jit
def ramp(a: Any, base: float) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] = base + i


class CompletionRegistry:
    def __init__(self) -> None:
        self._entries: list[tuple[nx.Transfer[Host], Callback]] = []
        self.fired = 0

    def register(self, transfer: nx.Transfer[Host], callback: Callback) -> None:
        self._entries.append((transfer, callback))

    def poll(self, block: bool = False) -> int:
        remaining: list[tuple[nx.Transfer[Host], Callback]] = []
        ran = 0
        for transfer, callback in self._entries:
            if block or transfer.done():
                callback(transfer.wait())
                ran += 1
            else:
                remaining.append((transfer, callback))
        self._entries = remaining
        self.fired += ran
        return ran


class Collector:
    def __init__(self) -> None:
        self.values: dict[int, float] = {}
        self.returned: list[Host] = []

    def on_result(self, step: int) -> Callback:
        def done(buf: Host) -> None:
            self.values[step] = float(buf.read()[-1])
            self.returned.append(buf)

        return done


def main() -> None:
    n = 20
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    registry = CompletionRegistry()
    collector = Collector()
    spare: list[Host] = [nx.pinned_array(n, np.float32) for _ in range(4)]
    last: nx.Transfer[Host] | None = None
    for step in range(4):
        s.launch(ramp, 1, n, dev, float(100 * step))
        last = s.download(dev, into=spare.pop())
        registry.register(last, collector.on_result(step))
        registry.poll()
    registry.poll(block=True)
    assert last is not None
    final = last.wait()  # E: transfer-completed-twice
    print("final buffer tail", float(final.read()[-1]))
    s.close()
    assert collector.values == {k: 100.0 * k + n - 1 for k in range(4)}, collector.values
    print("callbacks fired:", registry.fired)


if __name__ == "__main__":
    main()
