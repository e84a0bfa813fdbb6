# RUN: ok
"""A producer thread stages chunks from a pinned pool; the main thread consumes them."""
from __future__ import annotations

import queue
import threading
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

HostF = nx.PinnedArray[nx.Owned, np.float32]
DevF = nx.DeviceArray[nx.Owned, np.float32]
Item = tuple[int, DevF, nx.Transfer[HostF]] | None


@cuda.jit
def square(a: Any) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = a[i] * a[i]


def producer(pool: nx.PinnedPool[np.float32], s: nx.Stream[nx.Owned], q: queue.Queue[Item],
             chunks: int, n: int) -> None:
    for index in range(chunks):
        buf = pool.take()
        with buf.write() as v:
            v[:] = float(index)
        dev = nx.device_array(n, np.float32)
        q.put((index, dev, s.upload(buf, to=dev)))
    q.put(None)


def consume(pool: nx.PinnedPool[np.float32], s: nx.Stream[nx.Lent], item: tuple[int, DevF, nx.Transfer[HostF]]) -> float:
    index, dev, t = item
    try:
        buf = t.wait()
        s.launch(square, 1, 64, dev)
        buf = s.download(dev, into=buf).wait()
        total = float(buf.read().sum(dtype=np.float64))
        pool.give(buf)
        return total
    finally:
        if not t.completed:
            pool.recycle(t)
        dev.free()


def main(chunks: int = 6, n: int = 128) -> list[float]:
    pool = nx.PinnedPool(2, n, np.float32)
    upload_s, compute_s = nx.stream(), nx.stream()
    q: queue.Queue[Item] = queue.Queue(maxsize=2)
    results: list[float] = []
    worker = threading.Thread(target=producer, args=(pool, upload_s, q, chunks, n), daemon=True)
    worker.start()
    with compute_s.lend() as cs:
        while (item := q.get()) is not None:
            results.append(consume(pool, cs, item))
    worker.join()
    pool.drain()
    upload_s.close()
    compute_s.close()
    assert results == [float(i * i * n) for i in range(chunks)], results
    return results


if __name__ == "__main__":
    main()
