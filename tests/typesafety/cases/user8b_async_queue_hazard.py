# RUN: raises UseAfterTransferError via-call
# Planted bug: the raw range is logged after the upload started (describe() lends the moved buffer) instead of before.
"""asyncio sensors: each task smooths its readings on its own stream, results go to a queue."""
from __future__ import annotations

import asyncio
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Reading = nx.PinnedArray[nx.Owned, np.float32]
Result = tuple[str, float, float]


@nx.kernel(reads=["src"], writes=["dst"])
@cuda.jit
def smooth3(src: Any, dst: Any) -> None:
    for i in range(cuda.grid(1), dst.size, cuda.gridsize(1)):
        lo = i - 1 if i > 0 else 0
        hi = i + 1 if i + 1 < src.size else src.size - 1
        dst[i] = (src[lo] + src[i] + src[hi]) / 3.0


def describe(buf: Reading) -> tuple[float, float]:
    with buf.lend() as view:
        data = view.read()
        return float(data.min()), float(data.max())


async def sensor(name: str, seed: int, n: int, out: asyncio.Queue[Result]) -> None:
    s = nx.stream()
    raw = nx.device_array(n, np.float32)
    smooth = nx.device_array(n, np.float32)
    buf = nx.pinned_copy(np.random.default_rng(seed).random(n, dtype=np.float32))
    pending = s.upload(buf, to=raw)
    raw_lo, raw_hi = describe(buf)  # E: use-after-transfer
    buf = await pending
    smooth3[1, 64, s](raw, smooth)
    buf = await s.download(smooth, into=buf)
    lo, hi = describe(buf)
    assert raw_lo <= lo and hi <= raw_hi
    await out.put((name, lo, hi))
    s.close()


async def collect(names: list[str], n: int) -> list[Result]:
    q: asyncio.Queue[Result] = asyncio.Queue()
    tasks = [asyncio.create_task(sensor(name, seed, n, q)) for seed, name in enumerate(names)]
    await asyncio.gather(*tasks)
    results = [q.get_nowait() for _ in names]
    return sorted(results)


def main(n: int = 96) -> list[Result]:
    results = asyncio.run(collect(["imu", "lidar", "sonar"], n))
    assert [r[0] for r in results] == ["imu", "lidar", "sonar"], results
    return results


if __name__ == "__main__":
    main()
