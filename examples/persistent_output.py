"""A persistent pinned output buffer, reused at every step of a simulation.

The raw numba idiom::

    state = cuda.to_device(initial, stream=s)   # pageable: the driver stages it
    out = cuda.pinned_array(n, np.float32)      # allocated once: pinning is slow
    for step in range(steps):
        advance[grid, block, s](state)
        state.copy_to_host(out, stream=s)       # async: returns before the copy ran
        totals.append(out.sum())                # BUG: reads the previous step's values

The hazard: reading the destination of an asynchronous download before the copy has
landed. ``out`` holds whatever the last completed copy left there (the previous step,
or zeros), and nothing says so. The usual fix, ``s.synchronize()`` after the copy,
also waits for every kernel enqueued behind it.

numbaxfer: the download MOVES ``out`` into the transfer, so ``out.read()`` before
``out = down.wait()`` raises ``nx.UseAfterTransferError`` (and mypy with the plugin
reports ``[use-after-transfer]``). ``wait()`` blocks on that download's own event,
not the stream: the next step's kernel, enqueued before the wait, keeps running while
the CPU reads this step's values. The same pinned memory comes back every step, with
no allocation and no copy. The initial state, a small pageable array, goes up with
``s.upload_staged(initial, to=state)``: one explicit host copy into a staging buffer,
and ``initial`` may be reused at once.

    python examples/persistent_output.py
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx


@cuda.jit
def advance(state: Any) -> None:
    """One step of a toy simulation: every cell grows by one."""
    for i in range(cuda.grid(1), state.size, cuda.gridsize(1)):
        state[i] += 1.0


def grid_for(n: int) -> tuple[int, int]:
    """(blocks, threads) for the grid-stride kernels: 64 threads a block, >= 4 elements
    a thread (small grids keep numba's simulator, which runs threads in Python, fast)."""
    return max(1, min(1024, n // 256)), 64


def main(n: int = 256, steps: int = 4) -> list[float]:
    s = nx.stream()
    state = nx.device_array(n, np.float32)
    initial = np.arange(n, dtype=np.float32)
    s.upload_staged(initial, to=state)  # pageable, small: one host copy, no wait needed
    out = nx.pinned_array(n, np.float32)  # the persistent output, allocated once
    blocks, threads = grid_for(n)

    totals: list[float] = []
    s.launch(advance, blocks, threads, state)  # step 0
    for step in range(steps):
        down = s.download(state, into=out)  # out moves: reading it now would be stale
        if step + 1 < steps:
            s.launch(advance, blocks, threads, state)  # the next step runs on the device...
        out = down.wait()  # ...while the CPU reads this one (this event only)
        totals.append(float(out.read().sum(dtype=np.float64)))
    s.close()

    expected = [float(initial.sum(dtype=np.float64)) + n * (k + 1) for k in range(steps)]
    assert totals == expected, f"persistent output: {totals} != {expected}"
    return totals


if __name__ == "__main__":
    result = main()
    print(f"persistent_output: right, totals per step {result}")
