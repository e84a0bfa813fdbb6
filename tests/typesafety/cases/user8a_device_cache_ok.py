# RUN: ok
"""An LRU cache of device-resident tables: lookups lend a table read-only to a gather
kernel; tables beyond the capacity are evicted (freed) once nothing borrows them."""
from __future__ import annotations

from collections import OrderedDict
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@nx.kernel(reads=["table"], writes=["out"])
@cuda.jit
def gather_scaled(table: Any, out: Any, factor: float) -> None:
    i = cuda.grid(1)
    if i < out.size:
        out[i] = table[i % table.size] * factor


class TableCache:
    def __init__(self, capacity: int, n: int) -> None:
        self.capacity = capacity
        self.n = n
        self.stream = nx.stream()
        self.tables: OrderedDict[str, Dev] = OrderedDict()
        self.out: Dev = nx.device_array(n, np.float32)
        self.host: Host = nx.pinned_array(n, np.float32)
        self.evicted: list[str] = []

    def _load(self, key: str) -> Dev:
        table = nx.device_array(self.n, np.float32)
        self.stream.upload_staged(np.full(self.n, float(len(key)), np.float32), to=table)
        return table

    def _evict_over_capacity(self) -> None:
        while len(self.tables) > self.capacity:
            key, table = self.tables.popitem(last=False)
            table.free()
            self.evicted.append(key)

    def lookup(self, key: str, factor: float, keep: bool = True) -> float:
        if key not in self.tables:
            self.tables[key] = self._load(key)
        self.tables.move_to_end(key)
        with self.tables[key].lend() as view:
            gather_scaled[1, self.n, self.stream](view, self.out, factor)
        if not keep:
            self.tables.pop(key).free()
        self._evict_over_capacity()
        self.host = self.stream.download(self.out, into=self.host).wait()
        return float(self.host.read()[0])

    def close(self) -> None:
        for table in self.tables.values():
            table.free()
        self.stream.close()


def main() -> None:
    cache = TableCache(capacity=2, n=16)
    got = [cache.lookup(k, 2.0) for k in ["a", "bb", "a", "ccc"]]
    got.append(cache.lookup("scratch", 0.5, keep=False))
    got.append(cache.lookup("dddd", 2.0))
    cache.close()
    assert got == [2.0, 4.0, 2.0, 6.0, 3.5, 8.0], got
    assert "scratch" not in cache.tables
    print("device cache: evicted", cache.evicted)


if __name__ == "__main__":
    main()
