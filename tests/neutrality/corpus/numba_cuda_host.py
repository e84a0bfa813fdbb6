"""Ordinary numba.cuda host code: memory, streams, events, compilation helpers."""

from typing import reveal_type

import numpy as np
from numba import cuda
from numba.cuda import compile_ptx, compile_ptx_for_current_device
from numba.cuda.cudadrv import driver
from numba.cuda.cudadrv.devicearray import DeviceNDArray


def upload(n: int) -> np.ndarray:
    s = cuda.stream()
    h = cuda.pinned_array(n, dtype=np.float32)
    h[:] = 1.0
    d = cuda.to_device(h, stream=s)
    out = cuda.device_array_like(d, stream=s)
    out.copy_to_device(d, stream=s)
    s.synchronize()
    return out.copy_to_host()


def events() -> float:
    e0 = cuda.event()
    e1 = cuda.event(timing=True)
    e0.record()
    e1.record()
    e1.synchronize()
    return cuda.event_elapsed_time(e0, e1)


def scoped(a: np.ndarray) -> None:
    with cuda.pinned(a):
        d = cuda.to_device(a)
        d.copy_to_host(a)
    with cuda.mapped(a) as m:
        reveal_type(m)


@cuda.vectorize(["float32(float32, float32)"], target="cuda")
def add(x, y):
    return x + y


sum_reduce = cuda.reduce(lambda a, b: a + b)
ptx, resty = compile_ptx(lambda a: None, "void(float32[:])", device=False)
ptx2 = compile_ptx_for_current_device(lambda a: None, "void(float32[:])")
mm = cuda.current_context().get_memory_info()
dev = cuda.get_current_device()
fp16_ok = cuda.is_float16_supported()
avail: bool = cuda.is_available()
ctx = driver.driver

reveal_type(cuda.to_device)
reveal_type(cuda.device_array)
reveal_type(cuda.stream)
reveal_type(cuda.vectorize)
reveal_type(cuda.reduce)
reveal_type(cuda.compile_ptx)
reveal_type(cuda.gpus)
reveal_type(cuda.float32)
reveal_type(DeviceNDArray)
reveal_type(mm)
reveal_type(add)
not_a_str: str = cuda.stream  # an error in user code (untyped numba: silent)
