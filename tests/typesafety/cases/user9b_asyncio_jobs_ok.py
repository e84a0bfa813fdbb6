# RUN: ok
"""An asyncio job runner: each request (a vector to normalise) gets its own stream;
copies are awaited, so the event loop keeps serving other requests meanwhile."""
from __future__ import annotations

import asyncio
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

F32 = np.float32
Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def normalise(x: Any, out: Any, inv_norm: float) -> None:
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * inv_norm


async def handle(job_id: int, payload: np.ndarray[Any, Any], results: dict[int, float]) -> None:
    s = nx.stream()
    src = nx.pinned_copy(payload.astype(F32))
    with src.lend() as view:
        norm = float(np.linalg.norm(view.read()))
    x_d, y_d = nx.device_array(src.size, F32), nx.device_array(src.size, F32)
    src = await s.upload(src, to=x_d)
    s.launch(normalise, 1, 64, x_d, y_d, 1.0 / norm)
    down = s.download(y_d, into=nx.pinned_array(src.size, F32))
    await asyncio.sleep(0)            # let other handlers enqueue their work
    out = await down
    results[job_id] = float(np.linalg.norm(out.read()))
    out.free()
    src.free()
    s.close()


async def serve(requests: list[np.ndarray[Any, Any]], max_concurrent: int) -> dict[int, float]:
    results: dict[int, float] = {}
    gate = asyncio.Semaphore(max_concurrent)

    async def guarded(i: int, req: np.ndarray[Any, Any]) -> None:
        async with gate:
            await handle(i, req, results)

    await asyncio.gather(*(guarded(i, r) for i, r in enumerate(requests)))
    return results


def main() -> None:
    rng = np.random.default_rng(5)
    requests = [rng.standard_normal(int(n)) for n in rng.integers(16, 64, size=8)]
    results = asyncio.run(serve(requests, max_concurrent=3))
    for i in sorted(results):
        print(f"job {i}: |y| = {results[i]:.6f}")
    assert all(abs(v - 1.0) < 1e-4 for v in results.values())


if __name__ == "__main__":
    main()
