# A generator pipeline: chunks() slices the input, uploaded() stages each chunk through
# one pinned buffer and yields the device array, reduced() squares and sums each one on
# the way back, and pipeline() composes them with `yield from`. BUG: reduced() yields the
# sum before waiting, "so the consumer overlaps with the copy": it reads `out` early.
# RUN: raises UseAfterTransferError
from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]
CHUNK = 8


@cuda.jit
def square(a: Any) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] * a[i]


def chunks(data: NDArray[np.float32]) -> Iterator[NDArray[np.float32]]:
    for start in range(0, data.size, CHUNK):
        yield data[start : start + CHUNK]


def uploaded(s: nx.Stream[nx.Owned], parts: Iterable[NDArray[np.float32]]) -> Iterator[Dev]:
    host = nx.pinned_array(CHUNK, np.float32)
    for part in parts:
        with host.write() as a:
            a[:] = 0.0
            a[: part.size] = part
        dev = nx.device_array(CHUNK, np.float32)
        up = s.upload(host, to=dev)
        host = up.wait()
        yield dev


def reduced(s: nx.Stream[nx.Owned], devs: Iterable[Dev]) -> Iterator[float]:
    out = nx.pinned_array(CHUNK, np.float32)
    for dev in devs:
        s.launch(square, 1, CHUNK, dev)
        down = s.download(dev, into=out)
        yield float(out.read().sum())  # E: use-after-transfer "out" "is used"
        out = down.wait()
        dev.free()


def pipeline(s: nx.Stream[nx.Owned], data: NDArray[np.float32]) -> Iterator[float]:
    yield from reduced(s, uploaded(s, chunks(data)))


def main() -> None:
    s = nx.stream()
    data = np.arange(20, dtype=np.float32)
    total = sum(pipeline(s, data))
    s.close()
    assert total == float((data.astype(np.float64) ** 2).sum()), total


main()
