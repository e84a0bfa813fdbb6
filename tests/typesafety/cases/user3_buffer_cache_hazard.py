# A module-level cache of pinned staging buffers (allocating pinned memory is slow):
# acquire() hands out a cached buffer of the right size or a new one, release() puts
# one back for the next caller. A helper uploads a numpy array through it.
# The bug: the staging buffer goes back to the cache as soon as the upload is enqueued,
# so the next to_device() refills it under the copy.
# (No RUN header: the runtime raises later, at the download into the cached buffer in
# main(), a line no checker can tie to this move.)
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]

_CACHE: dict[int, list[Host]] = {}
_STREAM: nx.Stream[nx.Owned] | None = None


def get_stream() -> nx.Stream[nx.Owned]:
    global _STREAM
    if _STREAM is None:
        _STREAM = nx.stream()
    return _STREAM


def acquire(n: int) -> Host:
    free = _CACHE.get(n)
    if free:
        return free.pop()
    return nx.pinned_array(n, np.float32)


def release(buf: Host) -> None:
    _CACHE.setdefault(buf.size, []).append(buf)


def to_device(values: NDArray[np.float32]) -> Dev:
    s = get_stream()
    staging = acquire(values.size)
    with staging.write() as a:
        a[:] = values
    dev = nx.device_array(values.size, np.float32)
    up = s.upload(staging, to=dev)
    release(staging)  # E: use-after-transfer "\"staging\""
    up.wait()
    return dev


@cuda.jit
def double(a: Any) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] *= 2.0


def main() -> None:
    s = get_stream()
    total = 0.0
    for k in range(4):
        dev = to_device(np.full(16, float(k), np.float32))
        s.launch(double, 1, 32, dev)
        out = acquire(16)
        out = s.download(dev, into=out).wait()
        total += float(out.read().sum())
        release(out)
    assert total == 2.0 * 16 * (0 + 1 + 2 + 3), total
    assert len(_CACHE[16]) == 1  # one buffer served every call


if __name__ == "__main__":
    main()
    get_stream().close()
