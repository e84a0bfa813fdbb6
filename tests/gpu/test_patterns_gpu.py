"""Mapped memory and asyncio on a real GPU."""

from __future__ import annotations

import asyncio
import sys

import numpy as np
import pytest
from numba import cuda

import numbaxfer as nx
from tests.kernels import slow_fill

pytestmark = pytest.mark.gpu

N = 1 << 20
GRID, BLOCK = (N + 255) // 256, 256
SPIN = 20_000
TRIALS = 20
fill = nx.kernel(writes=["a"])(slow_fill)


def test_raw_numba_mapped_read_during_kernel_is_stale() -> None:
    s = cuda.stream()
    m = cuda.mapped_array(N, np.float32)
    stale = 0
    for trial in range(TRIALS):
        m[:] = -1.0
        slow_fill[GRID, BLOCK, s](m, float(trial), SPIN)
        stale += int(m[-1] != float(trial))  # numba lets the host read at once
        s.synchronize()
    print(f"\nraw numba mapped read during kernel: stale in {stale}/{TRIALS}", file=sys.stderr)
    assert stale > 0


def test_numbaxfer_mapping_refuses_the_read_and_returns_the_result() -> None:
    s = nx.stream()
    m = nx.mapped_array(N, np.float32)
    right = refused = 0
    for trial in range(TRIALS):
        mapping = s.map(m)
        s.launch(fill, GRID, BLOCK, mapping.device, float(trial), SPIN)
        try:
            m.read()  # type: ignore[use-after-transfer]
        except nx.UseAfterTransferError:
            refused += 1
        m = mapping.wait()
        right += int((m.read() == float(trial)).all())
    assert refused == TRIALS and right == TRIALS


def test_await_does_not_block_the_event_loop() -> None:
    async def main() -> tuple[int, bool]:
        s = nx.stream()
        dev = nx.device_array(N, np.float32)
        s.launch(fill, GRID, BLOCK, dev, 3.0, SPIN * 20)  # tens of ms
        download = s.download(dev, into=nx.pinned_array(N, np.float32))
        ticks = 0
        stop = asyncio.Event()

        async def ticker() -> None:
            nonlocal ticks
            while not stop.is_set():
                ticks += 1
                await asyncio.sleep(0.001)

        task = asyncio.create_task(ticker())
        out = await download
        stop.set()
        await task
        return ticks, bool((out.read() == 3.0).all())

    ticks, right = asyncio.run(main())
    print(f"\nevent loop ticks while awaiting a transfer: {ticks}", file=sys.stderr)
    assert right and ticks >= 5
