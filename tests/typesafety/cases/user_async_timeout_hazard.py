# asyncio code that bounds every GPU transfer with a timeout: the transfer is awaited
# through asyncio.wait_for(up, timeout), which hands the buffer back like `await up`;
# a job whose download would exceed its budget is reported and its buffer taken back.
# Bug: after the timed await of the upload, the old code's `up.wait()` was kept "to be
# sure": the transfer is completed twice.
# RUN: raises UseAfterTransferError
from __future__ import annotations

import asyncio
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def square(a: Any) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] * a[i]


async def job(value: float, n: int, timeout: float) -> float:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    host = nx.pinned_copy(np.full(n, value, np.float32))
    up = s.upload(host, to=dev)
    host = await asyncio.wait_for(up, timeout)
    host = up.wait()  # E: transfer-completed-twice "up"
    s.launch(square, 1, n, dev)
    down = s.download(dev, into=host)
    try:
        host = await asyncio.wait_for(down, timeout)
    except TimeoutError:
        host = down.wait()
        s.close()
        return float("nan")
    s.close()
    return float(host.read().sum())


async def run_all(n: int = 8) -> list[float]:
    return list(await asyncio.gather(*(job(float(v), n, 5.0) for v in range(3))))


def main() -> list[float]:
    got = asyncio.run(run_all())
    assert got == [0.0, 8.0, 32.0], got
    return got


main()
