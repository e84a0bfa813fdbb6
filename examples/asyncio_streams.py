"""asyncio tasks, each with a private stream, awaiting their own transfers.

The raw numba idiom::

    async def job(value):
        s = cuda.stream()
        host = cuda.pinned_array(n, np.float32)
        host[:] = value
        dev = cuda.to_device(host, stream=s)
        scale[grid, block, s](dev)
        dev.copy_to_host(host, stream=s)
        await asyncio.sleep(0)                    # BUG: yielding is not waiting
        return host.sum()                         #   (or: `await s.async_done()` forgotten
                                                  #    on one path, or s.synchronize(),
                                                  #    which blocks the whole event loop)

    results = await asyncio.gather(*(job(v) for v in values))

The hazard: between two awaits the event loop runs other tasks, which makes it look as
if time has passed for the GPU too; it has not. A task that reads a download's
destination before its copy has completed gets stale values, and a task that calls
``s.synchronize()`` stalls every other task on the loop while it blocks.

numbaxfer: a ``Transfer`` is awaitable. ``host = await s.upload(...)`` and
``out = await s.download(dev, into=host)`` complete the task's own transfers and hand
the buffers back; until then the buffer is moved and any use raises (mypy with the
plugin reports it too). On a GPU the event is waited for in a worker thread (the
driver call releases the GIL), so other tasks keep running; on numba's simulator and
on the emulator the await completes inline. Each task owns its stream and closes it.

    python examples/asyncio_streams.py
"""

from __future__ import annotations

import asyncio
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx


@cuda.jit
def scale(a: Any, factor: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] *= factor


def grid_for(n: int) -> tuple[int, int]:
    """(blocks, threads) for the grid-stride kernels: 64 threads a block, >= 4 elements
    a thread (small grids keep numba's simulator, which runs threads in Python, fast)."""
    return max(1, min(1024, n // 256)), 64


async def job(value: float, n: int) -> float:
    """Upload ``value`` everywhere, triple it on the device, download, sum."""
    s = nx.stream()  # private to this task: no other task waits on it
    dev = nx.device_array(n, np.float32)
    host = nx.pinned_copy(np.full(n, value, dtype=np.float32))
    host = await s.upload(host, to=dev)  # other tasks run while the copy does
    blocks, threads = grid_for(n)
    s.launch(scale, blocks, threads, dev, 3.0)
    host = await s.download(dev, into=host)  # the buffer comes back with the result
    s.close()
    return float(host.read().sum(dtype=np.float64))


async def run_all(tasks: int, n: int) -> list[float]:
    return list(await asyncio.gather(*(job(float(i), n) for i in range(tasks))))


def main(tasks: int = 4, n: int = 128) -> list[float]:
    results = asyncio.run(run_all(tasks, n))
    assert results == [3.0 * i * n for i in range(tasks)], f"asyncio: {results}"
    return results


if __name__ == "__main__":
    result = main()
    print(f"asyncio_streams: right, {len(result)} tasks on private streams: {result}")
