# RUN: raises BorrowError
# Planted bug: the optional preview launch was dedented out of the lend block, so it launches with the lent table view after the lend has ended.
"""A small cache of device-resident lookup tables keyed by name."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]


@nx.kernel(reads=["table"], writes=["out"])
@cuda.jit
def gather(table: Any, out: Any) -> None:
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        out[i] = table[i % table.size] * 2.0


class TableCache:
    def __init__(self, stream: nx.Stream[nx.Lent]) -> None:
        self.stream = stream
        self.tables: dict[str, Dev] = {}
        self.hits = 0

    def get(self, name: str, n: int) -> Dev:
        if name in self.tables:
            self.hits += 1
            return self.tables[name]
        dev = nx.device_array(n, np.float32)
        self.stream.upload_staged(np.arange(n, dtype=np.float32) + len(name), to=dev).wait()
        self.tables[name] = dev
        return dev

    def evict_all(self) -> None:
        for dev in self.tables.values():
            dev.free()
        self.tables.clear()


def apply_table(cache: TableCache, name: str, out: Dev, preview: Dev | None = None) -> None:
    table = cache.get(name, 16)
    with table.lend() as view:
        gather[1, 32, cache.stream](view, out)
    if preview is not None:
        gather[1, 32, cache.stream](view, preview)  # E: lend-escape


def main() -> None:
    s = nx.stream()
    cache = TableCache(s)
    out = nx.device_array(64, np.float32)
    host = nx.pinned_array(64, np.float32)
    thumb = nx.device_array(16, np.float32)
    for name in ("gamma", "srgb", "gamma"):
        apply_table(cache, name, out, thumb if name == "srgb" else None)
        host = s.download(out, into=host).wait()
        expected = np.tile((np.arange(16, dtype=np.float32) + len(name)) * 2.0, 4)
        assert np.array_equal(host.read(), expected), name
    assert cache.hits == 1
    cache.evict_all()
    thumb.free()
    s.close()
    print(f"cache hits: {cache.hits}")


if __name__ == "__main__":
    main()
