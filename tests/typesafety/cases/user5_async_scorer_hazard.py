# An asyncio batch scorer (see user5_async_scorer_ok.py). The bug, kind "waited twice
# (await, then wait())": the download is awaited to let other tasks run until the result
# is home, then taken back with the wait() of the synchronous version of the code.
# RUN: raises UseAfterTransferError
from __future__ import annotations

import asyncio
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx


@cuda.jit
def sigmoid(x: Any, y: Any) -> None:
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        y[i] = 1.0 / (1.0 + 2.718281828 ** (-x[i]))


async def score_batch(batch: NDArray[np.float32]) -> float:
    s = nx.stream()
    d_in = nx.device_array(batch.size, np.float32)
    d_out = nx.device_array(batch.size, np.float32)
    host = nx.pinned_copy(batch)
    out = nx.pinned_array(batch.size, np.float32)
    up = s.upload(host, to=d_in)
    s.launch(sigmoid, 1, 32, d_in, d_out)
    down = s.download(d_out, into=out)
    host = await up
    await down
    out = down.wait()  # E: transfer-completed-twice
    score = float(out.read().mean())
    s.close()
    return score


async def main(batches: list[NDArray[np.float32]]) -> list[float]:
    return list(await asyncio.gather(*(score_batch(b) for b in batches)))


if __name__ == "__main__":
    batches = [np.zeros(32, np.float32), np.full(32, 10.0, np.float32)]
    scores = asyncio.run(main(batches))
    assert abs(scores[0] - 0.5) < 1e-6 and scores[1] > 0.99, scores
    print("async scorer ok")
