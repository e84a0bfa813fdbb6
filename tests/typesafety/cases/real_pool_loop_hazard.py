# A PinnedPool take/give loop that gives the buffer back to the pool and then reads
# it; a second loop recycles the upload and writes the buffer the recycle took.
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

import numpy as np

import numbaxfer as nx


def main(steps: int = 4, n: int = 32) -> float:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    pool: nx.PinnedPool[np.float32] = nx.PinnedPool(2, n, np.float32)
    total = 0.0
    for step in range(steps):
        buf = pool.take()
        with buf.write() as a:
            a[:] = step
        buf = s.upload(buf, to=dev).wait()
        pool.give(buf)
        total += float(buf.read().sum())  # E: use-after-transfer "buf" "give()"
    for step in range(steps):
        buf = pool.take()
        up = s.upload(buf, to=dev)
        pool.recycle(up)
        with buf.write() as a:  # E: use-after-transfer "buf"
            a[:] = -step
    pool.drain()
    s.close()
    return total


main()
