# A warm-up routine before timing a kernel: a helper starts an upload of a pinned
# buffer (taking it by nx.Consumed) and returns the transfer; the caller completes it
# and keeps the buffer for the timed runs.
# RUN: ok
from __future__ import annotations

import time
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def axpy(x: Any, y: Any, a: float) -> None:
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        y[i] += a * x[i]


def start_upload(s: nx.Stream[nx.Owned], host: nx.Consumed[Host], dev: Dev) -> nx.Transfer[Host]:
    """Enqueue the upload of ``host`` (which moves) into ``dev``; the caller completes it."""
    return s.upload(host, to=dev)


def warm_up(s: nx.Stream[nx.Owned], host: Host, x: Dev, y: Dev) -> Host:
    up = start_upload(s, host, x)
    s.launch(axpy, 1, 32, x, y, 0.0)  # compiles the kernel
    return up.wait()


def timed(s: nx.Stream[nx.Owned], x: Dev, y: Dev, reps: int) -> float:
    t0 = time.perf_counter()
    for _ in range(reps):
        s.launch(axpy, 1, 32, x, y, 1.0)
    s.synchronize()
    return (time.perf_counter() - t0) / reps


def main(n: int = 32) -> None:
    s = nx.stream()
    host = nx.pinned_copy(np.ones(n, np.float32))
    x, y = nx.device_array(n, np.float32), nx.device_array(n, np.float32)
    s.upload_staged(np.zeros(n, np.float32), to=y)
    host = warm_up(s, host, x, y)
    per_launch = timed(s, x, y, reps=3)
    out = s.download(y, into=host).wait()
    s.close()
    assert per_launch > 0.0 and float(out.read()[0]) == 3.0


if __name__ == "__main__":
    main()
