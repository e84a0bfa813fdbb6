# Runtime: raises BorrowError (at line 95; the checker reports the escape at line 83, where the lent view leaves its block)
# Planted bug: sample() returns the lent view out of the cache.peek() context manager, and main() reads it after the lend has ended.
"""A TTL cache of device-resident lookup tables with pinned host mirrors; expired entries
are reloaded, and callers may peek at a mirror through a lending context manager."""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
View = nx.PinnedArray[nx.Lent, np.float32]


@cuda.jit
def scale(a: Any, factor: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] *= factor


@dataclass
class Entry:
    host: Host
    dev: Dev
    expires: float


class TTLCache:
    def __init__(self, n: int, ttl: float, clock: Callable[[], float]) -> None:
        self.n, self.ttl, self.clock = n, ttl, clock
        self.stream = nx.stream()
        self.entries: dict[str, Entry] = {}
        self.hits = self.misses = 0

    def _load(self, seed: float) -> Entry:
        host = nx.pinned_copy(np.full(self.n, seed, dtype=np.float32))
        dev = nx.device_array(self.n, np.float32)
        host = self.stream.upload(host, to=dev).wait()
        return Entry(host, dev, self.clock() + self.ttl)

    def _evict(self, key: str) -> None:
        entry = self.entries.pop(key)
        entry.host.free()
        entry.dev.free()

    def get(self, key: str, seed: float) -> Entry:
        entry = self.entries.get(key)
        if entry is not None and entry.expires > self.clock():
            self.hits += 1
            return entry
        if entry is not None:
            self._evict(key)
        self.misses += 1
        entry = self.entries[key] = self._load(seed)
        return entry

    @contextmanager
    def peek(self, key: str) -> Iterator[View]:
        with self.entries[key].host.lend() as view:
            yield view

    def refresh(self, key: str, factor: float) -> float:
        entry = self.entries[key]
        self.stream.launch(scale, 2, 64, entry.dev, factor)
        entry.host = self.stream.download(entry.dev, into=entry.host).wait()
        return float(entry.host.read().sum(dtype=np.float64))

    def close(self) -> None:
        for key in list(self.entries):
            self._evict(key)
        self.stream.close()


def sample(cache: TTLCache, key: str) -> View:
    with cache.peek(key) as view:
        return view  # E: lend-escape


def main() -> None:
    now = [0.0]
    cache = TTLCache(256, ttl=5.0, clock=lambda: now[0])
    try:
        cache.get("a", 1.0)
        cache.get("b", 2.0)
        cache.get("a", 1.0)
        now[0] = 6.0
        cache.get("a", 4.0)
        head = float(sample(cache, "a").read()[0])
        total = cache.refresh("b", 3.0)
    finally:
        cache.close()
    assert (cache.hits, cache.misses) == (1, 3)
    assert head == 4.0 and total == 6.0 * 256
    print("hits", cache.hits, "misses", cache.misses, head, total)


if __name__ == "__main__":
    main()
