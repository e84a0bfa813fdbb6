"""Kernels using what the emulator runs from their Python source in any numba mode:
device functions (nested, reached through globals and closures), ``cuda.grid`` in one
and two dimensions, shared memory with ``syncthreads``, local arrays, atomics, an
aliased ``cuda`` and ``numba.cuda`` spelled out. numba is imported before numbaxfer.

``main()`` runs them on the current backend and checks the results;
``python -m tests.emulator.kernel_features`` with ``NUMBAXFER_BACKEND=emulator`` and no
``NUMBA_ENABLE_CUDASIM`` runs them with numba.cuda in GPU mode on a CPU.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
from numba import cuda
from numba import cuda as nbcuda

import numbaxfer as nx

F32 = np.dtype(np.float32)


@cuda.jit(device=True)
def plus_half(x: float) -> float:
    return x + 0.5


@cuda.jit(device=True)
def twice_plus_one(x: float) -> float:
    return plus_half(x) * 2.0  # a device function calling another


@cuda.jit
def features(a: Any, out: Any, counter: Any) -> None:
    i = cuda.grid(1)
    tile = cuda.shared.array(8, numba.float32)
    scratch = cuda.local.array(2, numba.float32)
    t = cuda.threadIdx.x
    if i < a.size:
        tile[t] = twice_plus_one(a[i])
    cuda.syncthreads()
    if i < a.size:
        scratch[0] = tile[(t + 1) % cuda.blockDim.x]  # a neighbour's value
        out[i] = scratch[0]
        cuda.atomic.add(counter, 0, 1)
        numba.cuda.atomic.max(counter, 1, i)


@nbcuda.jit
def grid2d(m: Any) -> None:
    x, y = nbcuda.grid(2)
    if x < m.shape[0] and y < m.shape[1]:
        m[x, y] = 10 * x + y


def make_scaler(factor: float) -> Any:
    """A kernel defined in a function: the device function is in its closure."""

    @cuda.jit(device=True)
    def scale(x: float) -> float:
        return x * factor

    @cuda.jit
    def scaler(a: Any) -> None:
        i = cuda.grid(1)
        if i < a.size:
            a[i] = scale(a[i])

    return scaler


def _download(s: nx.Stream[nx.Owned], dev: nx.DeviceArray[nx.Owned, Any]) -> Any:
    host = nx.pinned_array(dev.shape, dev.dtype)
    host = s.download(dev, into=host).wait()
    return np.array(host.read())


def main() -> str:
    s = nx.stream()
    a = nx.pinned_copy(np.arange(16, dtype=F32))
    dev = nx.device_array(16, F32)
    a = s.upload(a, to=dev).wait()
    out = nx.device_array(16, F32)
    counter = nx.device_array(2, np.dtype(np.int64))
    zeros = nx.pinned_copy(np.zeros(2, dtype=np.int64))
    zeros = s.upload(zeros, to=counter).wait()
    s.launch(features, 2, 8, dev, out, counter)
    expected = np.array([2 * (j + 0.5) for j in range(16)], dtype=F32)
    expected = np.concatenate([np.roll(expected[:8], -1), np.roll(expected[8:], -1)])
    assert np.array_equal(_download(s, out), expected), _download(s, out)
    assert list(_download(s, counter)) == [16, 15]

    m = nx.device_array((4, 3), F32)
    s.launch(grid2d, (2, 2), (2, 2), m)
    assert np.array_equal(_download(s, m), np.add.outer(10 * np.arange(4), np.arange(3)))

    s.launch(make_scaler(3.0), 1, 16, dev)
    assert np.array_equal(_download(s, dev), 3 * np.arange(16, dtype=F32))
    s.close()
    from numba.cuda.core import config

    mode = "simulator" if config.ENABLE_CUDASIM else "GPU"
    return f"kernel features right on {nx.current_backend().describe()}, numba.cuda in {mode} mode"


if __name__ == "__main__":
    print(main())
