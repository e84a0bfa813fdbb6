# RUN: ok
"""Device-resident weight cache: named device arrays uploaded once, lent to kernels.

A DeviceCache keeps a dict of owned device arrays keyed by name. ``borrow(name)`` is a
context manager that lends one for the duration of a block; kernels declared with
``nx.kernel(reads=[...])`` take the lent view as input. Outputs are written into an
owned scratch array and downloaded.
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


@nx.kernel(reads=["w"], writes=["out"])
@cuda.jit
def apply_weights(w: Any, out: Any, gain: float) -> None:
    i = cuda.grid(1)
    if i < out.size:
        out[i] = w[i] * gain


class DeviceCache:
    def __init__(self, stream: nx.Stream[nx.Owned], width: int) -> None:
        self.stream = stream
        self.width = width
        self.entries: dict[str, Dev] = {}
        self.hits = 0

    def put(self, name: str, values: np.ndarray[Any, np.dtype[np.float32]]) -> None:
        dev = nx.device_array(self.width, np.float32)
        host = nx.pinned_copy(values)
        host = self.stream.upload(host, to=dev).wait()
        host.free()
        self.entries[name] = dev

    @contextmanager
    def borrow(self, name: str) -> Iterator[LentDev]:
        self.hits += 1
        with self.entries[name].lend() as view:
            yield view

    def evict(self, name: str) -> None:
        self.entries.pop(name).free()


def run_layer(cache: DeviceCache, name: str, gain: float) -> float:
    s = cache.stream
    out_dev = nx.device_array(cache.width, np.float32)
    with cache.borrow(name) as w:
        apply_weights[(cache.width + 63) // 64, 64, s](w, out_dev, gain)
    host = nx.pinned_array(cache.width, np.float32)
    host = s.download(out_dev, into=host).wait()
    out_dev.free()
    return float(host.read().sum(dtype=np.float64))


def main() -> None:
    width = 256
    s = nx.stream()
    cache = DeviceCache(s, width)
    cache.put("embed", np.full(width, 0.5, dtype=np.float32))
    cache.put("proj", np.full(width, 2.0, dtype=np.float32))
    totals = [run_layer(cache, "embed", 4.0), run_layer(cache, "proj", 0.25)]
    cache.evict("embed")
    totals.append(run_layer(cache, "proj", 1.0))
    s.synchronize()
    s.close()
    assert totals == [512.0, 128.0, 512.0], totals
    assert cache.hits == 3
    print("device_cache ok", totals)


if __name__ == "__main__":
    main()
