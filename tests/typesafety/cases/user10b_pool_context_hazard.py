# RUN: raises UseAfterTransferError
# Planted bug: the encoder adds the staged batch to a running checksum through lease.buf after that buffer was moved into the upload.
"""Staging pool wrapped in a context manager, for a batch feature encoder.

``StagingArea.slot()`` takes a pinned buffer from an ``nx.PinnedPool``, yields it to
the caller and, on exit, takes back whatever the caller left: an owned buffer goes
back with ``give()``, an in-flight upload with ``recycle()``. The encoder fills a slot,
uploads it, and hands the upload back to the area so the buffer is reused only once
the copy is finished.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def encode(src: Any, dst: Any, offset: int) -> None:
    i = cuda.grid(1)
    if i < src.size:
        dst[offset + i] = src[i] * 0.5


@dataclass
class Lease:
    buf: Host | None
    upload: nx.Transfer[Host] | None = None


@dataclass
class StagingArea:
    width: int
    count: int = 2
    pool: nx.PinnedPool[np.float32] = field(init=False)

    def __post_init__(self) -> None:
        self.pool = nx.PinnedPool(self.count, self.width, np.float32)

    @contextmanager
    def slot(self) -> Iterator[Lease]:
        lease = Lease(self.pool.take())
        try:
            yield lease
        finally:
            if lease.upload is not None:
                self.pool.recycle(lease.upload)
            elif lease.buf is not None:
                self.pool.give(lease.buf)


def encode_batches(batches: list[np.ndarray[Any, np.dtype[np.float32]]], width: int) -> float:
    s = nx.stream()
    area = StagingArea(width)
    dev_in = nx.device_array(width, np.float32)
    dev_out = nx.device_array(width * len(batches), np.float32)
    checksum = 0.0
    for k, batch in enumerate(batches):
        with area.slot() as lease:
            assert lease.buf is not None
            with lease.buf.write() as view:
                view[:] = batch
            lease.upload = s.upload(lease.buf, to=dev_in)
            checksum += float(lease.buf.read().sum())  # E: use-after-transfer
            lease.buf = None
            s.launch(encode, (width + 63) // 64, 64, dev_in, dev_out, k * width)
    area.pool.drain()
    out = nx.pinned_array(width * len(batches), np.float32)
    out = s.download(dev_out, into=out).wait()
    s.close()
    return float(out.read().sum(dtype=np.float64))


def main() -> None:
    width = 256
    batches = [np.full(width, float(k + 1), dtype=np.float32) for k in range(5)]
    total = encode_batches(batches, width)
    assert total == 0.5 * width * sum(range(1, 6)), total
    print("pool_context ok", total)


if __name__ == "__main__":
    main()
