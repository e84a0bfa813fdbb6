"""Ordinary numba.cuda kernels: grid, shared and local arrays, atomics, cg, fp16."""

from typing import reveal_type

import numpy as np
from numba import cuda, float32, int32, types


@cuda.jit
def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


@cuda.jit("void(float32[:], float32[:])")
def block_sum(x, out):
    tmp = cuda.shared.array(256, dtype=float32)
    loc = cuda.local.array(4, dtype=int32)
    loc[0] = 1
    tid = cuda.threadIdx.x
    tmp[tid] = x[cuda.blockIdx.x * cuda.blockDim.x + tid]
    cuda.syncthreads()
    if tid == 0:
        cuda.atomic.add(out, 0, tmp[0])


@cuda.jit(device=True)
def half_add(a, b):
    return cuda.fp16.hadd(a, b)


@cuda.jit
def grid_sync_kernel(x):
    g = cuda.cg.this_grid()
    g.sync()
    x[0] = cuda.float32(1.0)


def launch(n: int) -> None:
    x = cuda.to_device(np.ones(n, dtype=np.float32))
    y = cuda.to_device(np.ones(n, dtype=np.float32))
    out = cuda.device_array(n, dtype=np.float32)
    saxpy[(n + 127) // 128, 128](2.0, x, y, out)
    s = cuda.stream()
    block_sum[1, 256, s](x, out)
    saxpy.forall(n)(2.0, x, y, out)
    cuda.synchronize()


reveal_type(saxpy)
reveal_type(block_sum)
reveal_type(half_add)
reveal_type(cuda.grid)
reveal_type(cuda.cg)
reveal_type(cuda.fp16)
reveal_type(cuda.shared.array)
reveal_type(types.float32)
reveal_type(cuda.threadIdx)
