# RUN: ok
# asyncio tasks, each with its own stream: upload a tile, scale it, download it, all with
# `await transfer`; a gather collects the sums.
from __future__ import annotations

import asyncio
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


async def tile_job(k: int, n: int) -> float:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    host = nx.pinned_copy(np.full(n, float(k), dtype=np.float32))
    host = await s.upload(host, to=dev)
    s.launch(scale, 1, 64, dev, 5.0)
    down = s.download(dev, into=host)
    await asyncio.sleep(0)
    host = await down
    first = float(host.read()[0])
    s.close()
    print(f"tile {k}: first {first}")
    return float(host.read().sum())


async def run_all(tiles: int, n: int) -> list[float]:
    jobs = [tile_job(k, n) for k in range(tiles)]
    return list(await asyncio.gather(*jobs))


def main(tiles: int = 3, n: int = 64) -> list[float]:
    sums = asyncio.run(run_all(tiles, n))
    assert sums == [5.0 * k * n for k in range(tiles)], sums
    return sums


if __name__ == "__main__":
    main()
