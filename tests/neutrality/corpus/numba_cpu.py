"""Ordinary CPU numba code (njit, vectorize, typed containers, numba.types)."""

from typing import reveal_type

import numba
import numpy as np
from numba import njit, prange, types
from numba.typed import Dict, List


@njit(parallel=True, cache=False)
def total(a: np.ndarray) -> float:
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i]
    return s


@numba.vectorize(["float64(float64)", "float32(float32)"])
def twice(x):
    return 2 * x


sig = types.float64(types.float64, types.int64)
f64 = numba.types.float64
i32 = numba.int32
lst = List()
lst.append(1)
d = Dict.empty(key_type=types.unicode_type, value_type=types.float64)


def run(n: int) -> float:
    a = np.arange(n, dtype=np.float64)
    return total(a) + float(twice(a).sum())


reveal_type(numba.njit)
reveal_type(numba.jit)
reveal_type(numba.types.float64)
reveal_type(numba.__version__)
reveal_type(total)
reveal_type(sig)
reveal_type(numba.config.NUMBA_NUM_THREADS)
bad: int = numba.types  # an error in user code: reported with and without numbaxfer
