# RUN: ok
# A producer thread fills pinned buffers and hands each upload over a queue to a consumer
# thread, which waits it, launches the kernel and sends the buffer back on a return queue.
from __future__ import annotations

import queue
import threading
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def scale(a: Any, factor: float) -> None:
    """``a *= factor`` (grid-stride loop)."""
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] *= factor


def producer(
    s: nx.Stream[nx.Lent], dev: Dev, work: queue.Queue[nx.Transfer[Host] | None],
    free: queue.Queue[Host], steps: int, sums: list[float],
) -> None:
    for step in range(steps):
        buf = free.get()
        with buf.write() as a:
            a[:] = float(step)
        sums.append(float(step) * buf.size)
        work.put(s.upload(buf, to=dev))
    work.put(None)


def consumer(
    s: nx.Stream[nx.Lent], dev: Dev, work: queue.Queue[nx.Transfer[Host] | None],
    free: queue.Queue[Host], seen: list[int],
) -> None:
    while (t := work.get()) is not None:
        buf = t.wait()
        s.launch(scale, 1, 64, dev, 1.0)
        seen.append(buf.size)
        free.put(buf)


def main(n: int = 64, steps: int = 4) -> list[float]:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    work: queue.Queue[nx.Transfer[Host] | None] = queue.Queue()
    free: queue.Queue[Host] = queue.Queue()
    free.put(nx.pinned_array(n, np.float32))
    sums: list[float] = []
    seen: list[int] = []
    c = threading.Thread(target=consumer, args=(s, dev, work, free, seen))
    c.start()
    producer(s, dev, work, free, steps, sums)
    c.join()
    free.get().free()
    s.close()
    assert sums == [float(k * n) for k in range(steps)] and len(seen) == steps, sums
    return sums


if __name__ == "__main__":
    main()
