# A logging pipeline: records are packed into buffers from a PinnedPool and pushed to
# the device with send = functools.partial(s.upload, to=dev); the pool gets each
# buffer back with its transfer (recycle) and reuses it once the copy is done. The
# last record's checksum is computed before its buffer is recycled.
# Bug: the checksum is taken after send(buf): the partial's upload has moved buf.
# RUN: raises UseAfterTransferError
from __future__ import annotations

import functools
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx


@cuda.jit
def accumulate(total: Any, rec: Any) -> None:
    i = cuda.grid(1)
    if i < rec.size:
        total[i] += rec[i]


def ship(records: list[list[float]], width: int) -> float:
    s = nx.stream()
    dev = nx.device_array(width, np.float32)
    total = nx.device_array(width, np.float32)
    zeros = nx.pinned_copy(np.zeros(width, np.float32))
    zeros = s.upload(zeros, to=total).wait()
    pool: nx.PinnedPool[np.float32] = nx.PinnedPool(2, width, np.float32)
    send = functools.partial(s.upload, to=dev)
    last_checksum = 0.0
    for rec in records:
        if len(rec) > width:
            continue
        buf = pool.take()
        with buf.write() as a:
            a[:] = 0.0
            a[: len(rec)] = rec
        up = send(buf)
        last_checksum = float(buf.read().sum())  # E: use-after-transfer "buf"
        pool.recycle(up)
        s.launch(accumulate, 1, width, total, dev)
    pool.drain()
    result = s.download(total, into=zeros).wait()
    grand = float(result.read().sum())
    s.close()
    assert grand == sum(sum(r) for r in records if len(r) <= width), grand
    assert last_checksum == sum(records[-1])
    return grand


ship([[1.0, 2.0], [3.0] * 9, [4.0, 5.0, 6.0]], 4)
