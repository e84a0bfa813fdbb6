# A device-resident page cache with LRU eviction (an OrderedDict keyed by page id):
# touching a page that is not resident uploads it, evicting the least recently used
# page first; an evicted page is written back to its pinned host copy, and the
# write-back is waited before the host copy is served again.
# RUN: ok
from __future__ import annotations

from collections import OrderedDict
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def bump(page: Any) -> None:
    for i in range(cuda.grid(1), page.size, cuda.gridsize(1)):
        page[i] += 1.0


class PageCache:
    def __init__(self, s: nx.Stream[nx.Owned], pages: int, page_size: int, capacity: int) -> None:
        self.s = s
        self.capacity = capacity
        self.host: dict[int, Host] = {
            p: nx.pinned_copy(np.full(page_size, float(p), np.float32)) for p in range(pages)
        }
        self.resident: OrderedDict[int, Dev] = OrderedDict()

    def evict_one(self) -> None:
        page_id, dev = self.resident.popitem(last=False)
        writeback = self.s.download(dev, into=self.host[page_id])
        self.host[page_id] = writeback.wait()
        dev.free()

    def touch(self, page_id: int) -> Dev:
        if page_id in self.resident:
            self.resident.move_to_end(page_id)
            return self.resident[page_id]
        if len(self.resident) >= self.capacity:
            self.evict_one()
        dev = nx.device_array(self.host[page_id].shape, np.float32)
        self.host[page_id] = self.s.upload(self.host[page_id], to=dev).wait()
        self.resident[page_id] = dev
        return dev

    def flush(self) -> None:
        while self.resident:
            self.evict_one()


def main() -> None:
    s = nx.stream()
    cache = PageCache(s, pages=4, page_size=16, capacity=2)
    for page_id in [0, 1, 0, 2, 3, 1, 0]:
        s.launch(bump, 1, 32, cache.touch(page_id))
    cache.flush()
    values = {p: float(h.read()[0]) for p, h in cache.host.items()}
    s.close()
    assert values == {0: 3.0, 1: 3.0, 2: 3.0, 3: 4.0}, values


if __name__ == "__main__":
    main()
