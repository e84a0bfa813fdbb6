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
