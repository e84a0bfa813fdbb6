# RUN: ok
"""A feature store that serves device-resident embeddings to read-only consumers.

`FeatureStore.view(name)` lends a feature table for a `with` block; consumers may launch
kernels that read it. `DriftMonitor` computes a per-table mean on the device whenever a
table is observed, and `refresh()` recomputes the means of every table it watches after
the store has updated them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]
LentDev = nx.DeviceArray[nx.Lent, np.float32]
Host = nx.PinnedArray[nx.Owned, np.float32]


@nx.kernel(reads=["src"], writes=["out"])
@cuda.jit
def block_sum(src: Any, out: Any) -> None:
    if cuda.grid(1) == 0:
        acc = 0.0
        for i in range(src.size):
            acc += src[i]
        out[0] = acc


@cuda.jit
def update(table: Any, delta: float) -> None:
    for i in range(cuda.grid(1), table.size, cuda.gridsize(1)):
        table[i] += delta


class FeatureStore:
    def __init__(self, stream: nx.Stream[nx.Lent]) -> None:
        self.stream = stream
        self.tables: dict[str, Dev] = {}

    def add(self, name: str, values: np.ndarray[Any, np.dtype[np.float32]]) -> None:
        dev = nx.device_array(values.size, np.float32)
        self.stream.upload_staged(values, to=dev)
        self.tables[name] = dev

    def bump(self, name: str, delta: float) -> None:
        self.stream.launch(update, 2, 64, self.tables[name], delta)

    @contextmanager
    def view(self, name: str) -> Iterator[LentDev]:
        with self.tables[name].lend() as v:
            yield v


class DriftMonitor:
    def __init__(self, store: FeatureStore) -> None:
        self.store = store
        self.out = nx.device_array(1, np.float32)
        self.host: Host = nx.pinned_array(1, np.float32)
        self.watched: list[str] = []
        self.means: dict[str, float] = {}

    def _collect(self, size: int) -> float:
        self.host = self.store.stream.download(self.out, into=self.host).wait()
        return float(self.host.read()[0]) / size

    def observe(self, name: str, v: LentDev) -> None:
        if name not in self.watched:
            self.watched.append(name)
        self.store.stream.launch(block_sum, 1, 32, v, self.out)
        self.means[name] = self._collect(v.size)

    def refresh(self) -> None:
        for name in self.watched:
            with self.store.view(name) as v:
                self.store.stream.launch(block_sum, 1, 32, v, self.out)
                self.means[name] = self._collect(v.size)


def main() -> None:
    s = nx.stream()
    store = FeatureStore(s)
    store.add("users", np.full(200, 1.5, dtype=np.float32))
    store.add("items", np.arange(100, dtype=np.float32))
    monitor = DriftMonitor(store)
    for name in ("users", "items"):
        with store.view(name) as v:
            monitor.observe(name, v)
    first = dict(monitor.means)
    store.bump("users", 0.5)
    store.bump("items", -1.0)
    monitor.refresh()
    s.close()
    assert first == {"users": 1.5, "items": 49.5}, first
    assert monitor.means == {"users": 2.0, "items": 48.5}, monitor.means
    print("feature_lend: ok", first, monitor.means)


if __name__ == "__main__":
    main()
