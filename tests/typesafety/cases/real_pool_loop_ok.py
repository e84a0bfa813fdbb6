# A PinnedPool take/give loop: take a buffer, fill it, upload, wait, read, give it
# back; another round recycles the upload itself. Correct.
# RUN: ok
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
        up = s.upload(buf, to=dev)
        buf = up.wait()
        total += float(buf.read().sum())
        pool.give(buf)
    for step in range(steps):
        buf = pool.take()  # a buffer no copy still reads
        with buf.write() as a:
            a[:] = -step
        pool.recycle(s.upload(buf, to=dev))  # back into the pool with its copy
    out = pool.try_take()
    if out is not None:
        total += float(out.read()[0])
        pool.give(out)
    pool.drain()
    s.close()
    return total


main()
