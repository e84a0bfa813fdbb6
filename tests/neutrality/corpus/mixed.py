"""numba.cuda and cuda.bindings together, as a project that uses both writes them."""

from typing import reveal_type

import numba
import numba.cuda
import numpy as np
from cuda.bindings import driver
from numba import cuda


def handle_of(s: numba.cuda.cudadrv.driver.Stream) -> int:
    h = s.handle
    return int(h)


def main() -> None:
    s = cuda.stream()
    (err,) = driver.cuStreamSynchronize(s.handle)
    if err != driver.CUresult.CUDA_SUCCESS:
        raise RuntimeError(driver.cuGetErrorString(err))
    a = cuda.device_array((4, 4), np.float64)
    reveal_type(a)
    reveal_type(a.copy_to_host())
    reveal_type(s)
    reveal_type(err)
    print(handle_of(s), numba.cuda.gpus, numba.cuda.simulator)
