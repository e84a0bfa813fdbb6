# A chunked pipeline with a custom kernel: a polynomial evaluated on the device, one
# nx.Pipeline over two epochs of data; the step is a functools.partial binding the
# coefficients. Between epochs the source is refilled, once the run has given it back.
# Bug: the next epoch's data is written into src while the run still owns it (the
# refill was hoisted above run.wait() to "overlap" it), and dst is summed before wait().
# RUN: raises UseAfterTransferError
from __future__ import annotations

import functools
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx


@cuda.jit
def poly(x: Any, y: Any, a: float, b: float, c: float) -> None:
    i = cuda.grid(1)
    if i < x.size:
        y[i] = (a * x[i] + b) * x[i] + c


def step(
    s: nx.Stream[nx.Lent],
    chunk_in: nx.DeviceArray[nx.Owned, np.float32],
    chunk_out: nx.DeviceArray[nx.Owned, np.float32],
    *,
    coeffs: tuple[float, float, float],
) -> None:
    a, b, c = coeffs
    s.launch(poly, 1, chunk_in.size, chunk_in, chunk_out, a, b, c)


def main(total: int = 40, chunk: int = 16, epochs: int = 2) -> list[float]:
    src = nx.pinned_array(total, np.float32)
    dst = nx.pinned_array(total, np.float32)
    pipe = nx.Pipeline(chunk, np.float32, slots=2)
    results: list[float] = []
    with src.write() as a:
        a[:] = np.arange(total, dtype=np.float32)
    for epoch in range(epochs):
        run = pipe.map(src, into=dst, step=functools.partial(step, coeffs=(1.0, 0.0, 1.0)))
        with src.write() as a:  # E: use-after-transfer "src"
            a[:] = np.arange(total, dtype=np.float32) + epoch + 1
        results.append(float(dst.read().sum()))  # E: use-after-transfer "dst"
        src, dst = run.wait()
    pipe.close()
    return results


main()
