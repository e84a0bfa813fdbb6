"""An event-gated pool of pinned buffers, drained by a watcher thread.

The raw numba idiom::

    free = queue.Queue()                          # pinned buffers not in use
    for _ in range(2):
        free.put(cuda.pinned_array(n, np.float32))
    inflight = queue.Queue()

    def watcher():                                # consumes finished downloads
        while (item := inflight.get()) is not None:
            step, buf, ev = item
            ev.synchronize()                      # BUG if ev was recorded before the
            results[step] = buf.sum()             #   copy, or on the wrong stream, or
            free.put(buf)                         #   the poll uses query() wrongly

    for step in range(steps):
        buf = free.get()
        fill[grid, block, s](dev, step)
        dev.copy_to_host(buf, stream=s)
        ev = cuda.event(); ev.record(s)
        inflight.put((step, buf, ev))
        # and on the upload side: a staging buffer put back in `free` right after
        # copy_to_device is handed out and refilled while the copy still reads it

The hazard: the pool hands out a buffer, or the watcher reads one, before the copy that
uses it has finished. Each buffer's event must be recorded after its own copy and
waited on before every reuse; an off-by-one in that bookkeeping is silent.

numbaxfer: ``nx.PinnedPool`` does the event bookkeeping with ownership. ``take()`` hands
out only a buffer no copy uses (waiting, if it must, on the oldest recycled transfer's
own event, or until another thread gives one back); ``recycle(transfer)`` puts a buffer
back *with* its transfer, so it is reused only once the copy has finished; ``give(buf)``
puts back a buffer that is home. Here the main thread uploads from pooled staging
buffers (recycled as soon as the upload is enqueued) and downloads into pooled output
buffers; the transfers go to a watcher thread that waits each one (its own event),
consumes the result and gives the buffer back. The pool is thread-safe; a buffer moved
into a transfer or back into the pool cannot be touched by the thread that let it go.

With every output buffer out with the watcher, ``outputs.take()`` blocks until the
watcher gives one back, so the pool itself bounds the downloads in flight
(``try_take()`` returns None instead; ``grow(n)`` adds buffers). ``staging.drain()``
completes the recycled uploads before the end.

    python examples/pool_watcher.py
"""

from __future__ import annotations

import queue
import threading
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@nx.kernel(reads=["src"], writes=["dst"])
@cuda.jit
def affine(src: Any, dst: Any) -> None:
    """``dst = 2 src + 1`` (grid-stride loop)."""
    for i in range(cuda.grid(1), src.size, cuda.gridsize(1)):
        dst[i] = 2.0 * src[i] + 1.0


def grid_for(n: int) -> tuple[int, int]:
    """(blocks, threads) for the grid-stride kernels: 64 threads a block, >= 4 elements
    a thread (small grids keep numba's simulator, which runs threads in Python, fast)."""
    return max(1, min(1024, n // 256)), 64


def main(steps: int = 6, n: int = 128, buffers: int = 2) -> list[float]:
    s = nx.stream()
    dev_in = nx.device_array(n, np.float32)
    dev_out = nx.device_array(n, np.float32)
    blocks, threads = grid_for(n)
    staging: nx.PinnedPool[np.float32] = nx.PinnedPool(buffers, n, np.float32)
    outputs: nx.PinnedPool[np.float32] = nx.PinnedPool(buffers, n, np.float32)
    inflight: queue.Queue[tuple[int, nx.Transfer[Host]] | None] = queue.Queue()
    results: dict[int, float] = {}

    def watcher() -> None:
        while (item := inflight.get()) is not None:
            step, down = item
            out = down.wait()  # this download's own event: the data is home
            results[step] = float(out.read().sum(dtype=np.float64))
            outputs.give(out)  # out moves back into the pool: a waiting take() gets it

    thread = threading.Thread(target=watcher, name="numbaxfer-pool-watcher")
    thread.start()
    try:
        for step in range(steps):
            buf = staging.take()  # never a buffer an upload still reads
            with buf.write() as a:
                a[:] = float(step)
            staging.recycle(s.upload(buf, to=dev_in))  # buf returns to the pool with its copy
            s.launch(affine, blocks, threads, dev_in, dev_out)
            out = outputs.take()  # blocks while every output buffer is with the watcher
            inflight.put((step, s.download(dev_out, into=out)))  # out moves with the copy
    finally:
        inflight.put(None)
        thread.join()
    staging.drain()  # complete the recycled uploads
    s.close()

    totals = [results[k] for k in range(steps)]
    assert totals == [float((2 * k + 1) * n) for k in range(steps)], f"pool: {totals}"
    return totals


if __name__ == "__main__":
    result = main()
    print(f"pool_watcher: right, {len(result)} downloads consumed by the watcher thread")
