"""Ordinary cuda.bindings code (the low-level driver, runtime and NVRTC bindings)."""

from typing import reveal_type

import cuda.bindings.driver
from cuda.bindings import driver, nvrtc, runtime


def alloc(n: int) -> int:
    (err,) = driver.cuInit(0)
    err, dev = driver.cuDeviceGet(0)
    err, ctx = driver.cuDevicePrimaryCtxRetain(dev)
    err, ptr = cuda.bindings.driver.cuMemAlloc(n)
    err, stream = driver.cuStreamCreate(0)
    (err,) = driver.cuMemsetD8Async(ptr, 0, n, stream)
    (err,) = driver.cuStreamSynchronize(stream)
    return int(ptr)


def compile_src(src: bytes) -> bytes:
    err, prog = nvrtc.nvrtcCreateProgram(src, b"k.cu", 0, [], [])
    (err,) = nvrtc.nvrtcCompileProgram(prog, 0, [])
    err, size = nvrtc.nvrtcGetPTXSize(prog)
    buf = b" " * size
    (err,) = nvrtc.nvrtcGetPTX(prog, buf)
    return buf


def runtime_count() -> int:
    err, n = runtime.cudaGetDeviceCount()
    return int(n)


reveal_type(driver.cuInit)
reveal_type(driver.cuMemAlloc)
reveal_type(driver.CUresult)
reveal_type(driver.CUstream)
reveal_type(cuda.bindings.driver.cuEventCreate)
reveal_type(nvrtc.nvrtcCreateProgram)
reveal_type(runtime.cudaMalloc)
