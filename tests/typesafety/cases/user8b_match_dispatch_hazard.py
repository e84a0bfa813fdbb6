# RUN: raises UseAfterTransferError
# MYPY: >=2.4 on mypy 1.16.1 the names a match class pattern of a tuple binds get the union of the tuple's item types, so the program has type errors there
# XFAIL: miss (line 51): host = self.settle(name) returns the dict element self.hosts[name], the upload moves host (the same object), and a later 'peek' iteration reads self.hosts[name]; an alias returned by a method is not followed
# Planted bug: the `peek` case reads the dict entry directly instead of settling its pending download first.
"""A tiny command interpreter over named buffers, dispatched with `match`."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

HostF = nx.PinnedArray[nx.Owned, np.float32]
DevF = nx.DeviceArray[nx.Owned, np.float32]
Op = tuple[str, str] | tuple[str, str, float]


@cuda.jit
def scale(a: Any, factor: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] *= factor


class Workspace:
    def __init__(self, names: list[str], n: int) -> None:
        self.stream = nx.stream()
        self.hosts: dict[str, HostF] = {k: nx.pinned_copy(np.ones(n, np.float32)) for k in names}
        self.devs: dict[str, DevF] = {k: nx.device_array(n, np.float32) for k in names}
        self.pending: dict[str, nx.Transfer[HostF]] = {}
        self.peeks: list[float] = []

    def settle(self, name: str) -> HostF:
        t = self.pending.pop(name, None)
        if t is not None:
            self.hosts[name] = t.wait()
        return self.hosts[name]

    def run(self, ops: list[Op]) -> None:
        s = self.stream
        for op in ops:
            match op:
                case ("upload", name):
                    host = self.settle(name)
                    self.pending[name] = s.upload(host, to=self.devs[name])
                case ("scale", name, factor):
                    s.launch(scale, 1, 64, self.devs[name], factor)
                case ("download", name):
                    host = self.settle(name)
                    self.pending[name] = s.download(self.devs[name], into=host)
                case ("peek", name):
                    self.peeks.append(float(self.hosts[name].read()[0]))  # E: use-after-transfer
                case _:
                    raise ValueError(f"unknown op {op!r}")

    def close(self) -> dict[str, float]:
        totals = {k: float(self.settle(k).read().sum()) for k in list(self.hosts)}
        self.stream.close()
        return totals


def main(n: int = 64) -> dict[str, float]:
    ws = Workspace(["a", "b"], n)
    ws.run([
        ("upload", "a"), ("upload", "b"), ("scale", "a", 3.0),
        ("download", "a"), ("peek", "a"), ("scale", "b", 0.5), ("download", "b"),
    ])
    totals = ws.close()
    assert ws.peeks == [3.0] and totals == {"a": 3.0 * n, "b": 0.5 * n}, (ws.peeks, totals)
    return totals


if __name__ == "__main__":
    main()
