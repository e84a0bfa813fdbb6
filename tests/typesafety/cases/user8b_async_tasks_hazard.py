# RUN: raises BorrowError
# Planted bug: the dark-frame branch frees the frame early, inside its own lend block.
"""asyncio frame processor: each task owns a stream and awaits its own copies."""
from __future__ import annotations

import asyncio
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Frame = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def threshold(a: Any, level: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        if a[i] < level:
            a[i] = 0.0


def make_frame(seed: int, n: int) -> Frame:
    rng = np.random.default_rng(seed)
    return nx.pinned_copy(rng.random(n, dtype=np.float32))


async def process(seed: int, n: int, level: float) -> float | None:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    frame = make_frame(seed, n)
    try:
        frame = await s.upload(frame, to=dev)
        s.launch(threshold, 1, 64, dev, level)
        frame = await s.download(dev, into=frame)
        with frame.lend() as view:
            kept = view.read()
            if not np.any(kept):
                frame.free()  # E: owner-borrowed
                return None  # an all-dark frame: nothing to report
            return float(kept[kept > 0].mean())
    finally:
        s.close()
        dev.free()


async def run_all(count: int, n: int) -> list[float | None]:
    tasks = [asyncio.create_task(process(seed, n, 0.5 if seed else 2.0)) for seed in range(count)]
    return list(await asyncio.gather(*tasks))


def main(count: int = 4, n: int = 256) -> list[float | None]:
    results = asyncio.run(run_all(count, n))
    assert results[0] is None
    assert all(r is not None and 0.5 <= r <= 1.0 for r in results[1:]), results
    return results


if __name__ == "__main__":
    main()
