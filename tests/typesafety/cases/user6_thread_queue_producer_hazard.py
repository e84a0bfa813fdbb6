# RUN: raises UseAfterTransferError
# Planted bug: after putting the upload on the queue the producer reads the buffer it
# just let go to compute a checksum for a log line (the transfer owns it).
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
        work.put(s.upload(buf, to=dev))
        sums.append(float(buf.read().sum()))  # E: use-after-transfer
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
    c = threading.Thread(target=consumer, args=(s, dev, work, free, seen), daemon=True)
    c.start()
    producer(s, dev, work, free, steps, sums)
    c.join()
    free.get().free()
    s.close()
    assert sums == [float(k * n) for k in range(steps)] and len(seen) == steps, sums
    return sums


if __name__ == "__main__":
    main()
