# A class-based LRU cache of device arrays (weights or lookup tables keyed by name): a
# miss uploads the table from a pinned host copy; when the cache is full the least
# recently used entry is evicted and an eviction callback gets it (here: it records the
# name and frees the device memory). Readers get a table through with_table(), which lends
# the device array to a callback for the duration of the call.
# RUN: ok
from __future__ import annotations

from collections import OrderedDict
from typing import Any, Callable, TypeVar

import numpy as np
from numba import cuda

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]
LentDev = nx.DeviceArray[nx.Lent, np.float32]
R = TypeVar("R")


@nx.kernel(reads=["table", "idx"], writes=["out"])
@cuda.jit
def gather(table: Any, idx: Any, out: Any) -> None:
    for i in range(cuda.grid(1), idx.size, cuda.gridsize(1)):
        out[i] = table[idx[i]]


class DeviceLRU:
    def __init__(self, capacity: int, on_evict: Callable[[str, Dev], None]) -> None:
        self.capacity = capacity
        self.on_evict = on_evict
        self.s = nx.stream()
        self.entries: OrderedDict[str, Dev] = OrderedDict()

    def _load(self, name: str, values: np.ndarray[Any, np.dtype[np.float32]]) -> Dev:
        host = nx.pinned_copy(values)
        dev = nx.device_array(values.shape, np.float32)
        up = self.s.upload(host, to=dev)
        host = up.wait()
        host.free()
        return dev

    def ensure(self, name: str, values: np.ndarray[Any, np.dtype[np.float32]]) -> None:
        if name in self.entries:
            self.entries.move_to_end(name)
            return
        if len(self.entries) >= self.capacity:
            old, dev = self.entries.popitem(last=False)
            self.on_evict(old, dev)
        self.entries[name] = self._load(name, values)

    def with_table(self, name: str, fn: Callable[[LentDev], R]) -> R:
        self.entries.move_to_end(name)
        with self.entries[name].lend() as view:
            return fn(view)

    def close(self) -> None:
        for name, dev in list(self.entries.items()):
            self.on_evict(name, dev)
        self.entries.clear()
        self.s.close()


def main() -> list[float]:
    evicted: list[str] = []

    def on_evict(name: str, dev: Dev) -> None:
        evicted.append(name)
        dev.free()

    cache = DeviceLRU(2, on_evict)
    s = nx.stream()
    idx = nx.device_array(4, np.int32)
    s.upload_staged(np.array([0, 2, 4, 6], np.int32), to=idx)
    out = nx.device_array(4, np.float32)
    host_out = nx.pinned_array(4, np.float32)
    sums: list[float] = []
    for name, scale in [("a", 1.0), ("b", 2.0), ("a", 1.0), ("c", 3.0)]:
        cache.ensure(name, np.arange(8, dtype=np.float32) * scale)

        def run(view: LentDev) -> None:
            gather[1, 32, s](view, idx, out)

        cache.with_table(name, run)
        host_out = s.download(out, into=host_out).wait()
        sums.append(float(host_out.read().sum()))
    cache.close()
    s.close()
    assert evicted == ["b", "a", "c"], evicted
    return sums


if __name__ == "__main__":
    assert main() == [12.0, 24.0, 12.0, 36.0], main()
    print("lru ok")
