# RUN: ok
# A training loop with a NaN guard: each batch is written into a pinned buffer, uploaded
# and fed to the update kernel; a host-side check raises FloatingPointError on a bad
# batch after the upload was enqueued. The handler dumps the offending batch for
# debugging: it first takes the buffer back from the upload still pending (tracked in
# `pending`, None once waited).
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@cuda.jit
def update(w: Any, x: Any, lr: float) -> None:
    for i in range(cuda.grid(1), w.size, cuda.gridsize(1)):
        w[i] -= lr * (w[i] - x[i])


def check_finite(step: int, batch: NDArray[np.float32]) -> None:
    if not np.isfinite(batch).all():
        raise FloatingPointError(f"non-finite values in batch {step}")


def train(batches: list[NDArray[np.float32]], lr: float = 0.5) -> tuple[int, NDArray[np.float32] | None]:
    n = batches[0].size
    s = nx.stream()
    d_w = nx.device_array(n, np.float32)
    s.upload_staged(np.zeros(n, np.float32), to=d_w)
    d_x = nx.device_array(n, np.float32)
    xb: Host = nx.pinned_array(n, np.float32)
    pending: nx.Transfer[Host] | None = None
    steps, dumped = 0, None
    try:
        for step, batch in enumerate(batches):
            with xb.write() as a:
                a[:] = batch
            pending = s.upload(xb, to=d_x)
            s.launch(update, 1, 32, d_w, d_x, lr)
            check_finite(step, batch)
            xb = pending.wait()
            pending = None
            steps += 1
    except FloatingPointError:
        if pending is not None:
            xb = pending.wait()
            pending = None
        dumped = xb.read().copy()
    s.synchronize()
    s.close()
    return steps, dumped


if __name__ == "__main__":
    good = [np.ones(32, np.float32) for _ in range(3)]
    bad = np.ones(32, np.float32)
    bad[5] = np.nan
    steps, dumped = train(good + [bad] + good)
    assert steps == 3 and dumped is not None and np.isnan(dumped[5]), (steps, dumped)
    print("nan guard ok")
