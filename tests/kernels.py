"""Small numba kernels shared by the tests (tiny grids: the simulator runs each thread
in Python)."""

from __future__ import annotations

from typing import Any

from numba import cuda


@cuda.jit
def add_one(a: Any) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] += 1.0


@cuda.jit
def affine(src: Any, dst: Any) -> None:
    i = cuda.grid(1)
    if i < src.size:
        dst[i] = 2.0 * src[i] + 1.0


@cuda.jit
def scale_into(src: Any, dst: Any, factor: float) -> None:
    i = cuda.grid(1)
    if i < src.size:
        dst[i] = src[i] * factor


@cuda.jit
def slow_fill(a: Any, value: float, spin: int) -> None:
    """Write ``value`` everywhere, after spinning ``spin`` iterations per thread (to make
    a cross-stream race visible on a fast GPU)."""
    i = cuda.grid(1)
    if i < a.size:
        acc = 0.0
        for k in range(spin):
            acc += k * 1e-9
        a[i] = value + acc * 0.0
