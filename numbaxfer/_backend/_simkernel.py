"""Run a ``numba.cuda.jit`` kernel on numba's simulator machinery, whatever mode numba
is in.

numba picks the GPU or its simulator once, when ``numba.cuda`` is first imported
(``NUMBA_ENABLE_CUDASIM``). The emulator does not need that global mode: the
simulator's parts (its fake ``cuda`` module for kernels, its thread-per-CUDA-thread
block runner, its device arrays) are ordinary modules under ``numba.cuda.simulator``,
importable beside a GPU-mode ``numba.cuda``. So a kernel is run here from its Python
source (``dispatcher.py_func``), never compiled:

* a copy of the kernel function is made whose globals (a snapshot of its module's,
  taken at launch) and closure cells see the simulator's per-launch fake ``cuda``
  module wherever they held the real ``numba.cuda`` (under any name), and a
  ``numba`` module whose ``.cuda`` is that fake one;
* every ``cuda.jit`` dispatcher among those globals and cells (device functions, in
  GPU or simulator mode) is replaced by a call of its ``py_func``, rewritten the same
  way, recursively, when it is first called;
* the blocks then run one at a time on the simulator's ``BlockManager`` (one Python
  thread per CUDA thread, ``syncthreads`` honoured), with its shared, local and const
  arrays, atomics, ``cuda.grid``/``gridsize`` and the rest of its ``FakeCUDAModule``.

The user's module is never modified, so a GPU-mode program keeps using its kernels on
the GPU with other backends.
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Callable, Sequence
from typing import Any, Final

import numpy as np

__all__ = ["is_kernel", "run_kernel", "simulator"]

#: The classes of ``numba.cuda.jit`` results: GPU mode and simulator mode.
_DISPATCHERS: Final = frozenset({"CUDADispatcher", "FakeCUDAKernel"})


def simulator() -> types.ModuleType:
    """``numba.cuda.simulator``, imported beside ``numba.cuda`` in whichever mode numba
    chose (importing it changes nothing in a GPU-mode ``numba.cuda``)."""
    return importlib.import_module("numba.cuda.simulator")


def is_kernel(obj: object) -> bool:
    """Is ``obj`` the result of ``numba.cuda.jit`` (a kernel or a device function)?"""
    return type(obj).__name__ in _DISPATCHERS and callable(getattr(obj, "py_func", None))


def _py_func(kernel: Any) -> types.FunctionType:
    fn = getattr(kernel, "py_func", None)
    if isinstance(fn, types.FunctionType):
        return fn
    if isinstance(kernel, types.FunctionType):
        return kernel  # a plain Python function written as a kernel
    raise TypeError(
        f"the emulator runs numba.cuda.jit kernels from their Python source, got "
        f"{type(kernel).__name__} (no py_func)"
    )


class _NumbaProxy:
    """``numba`` as a kernel sees it: everything as usual but ``numba.cuda``."""

    def __init__(self, real: types.ModuleType, fake_cuda: Any) -> None:
        self._real = real
        self.cuda = fake_cuda

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


class _DeviceCall:
    """A device function as a kernel running on the simulator calls it."""

    __slots__ = ("_dispatcher", "_rewriter")

    def __init__(self, rewriter: _Rewriter, dispatcher: Any) -> None:
        self._rewriter = rewriter
        self._dispatcher = dispatcher

    def __repr__(self) -> str:
        return f"<device function {_py_func(self._dispatcher).__name__} on the emulator>"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._rewriter.function(_py_func(self._dispatcher))(*args, **kwargs)


class _Rewriter:
    """Makes, once per launch, the simulator-bound copy of each function reached."""

    def __init__(self, fake_cuda: Any) -> None:
        self._fake = fake_cuda
        self._real_cuda = sys.modules.get("numba.cuda")
        real_numba = sys.modules.get("numba")
        self._real_numba = real_numba
        self._numba = None if real_numba is None else _NumbaProxy(real_numba, fake_cuda)
        self._done: dict[int, types.FunctionType] = {}
        self._calls: dict[int, _DeviceCall] = {}

    def _value(self, value: Any) -> Any:
        if value is None:
            return value
        if value is self._real_cuda:
            return self._fake
        if value is self._real_numba:
            return self._numba
        if is_kernel(value):
            call = self._calls.get(id(value))
            if call is None:
                call = self._calls[id(value)] = _DeviceCall(self, value)
            return call
        return value

    def function(self, fn: types.FunctionType) -> types.FunctionType:
        done = self._done.get(id(fn))
        if done is not None:
            return done
        scope = dict(fn.__globals__)
        for name, value in scope.items():
            if isinstance(value, types.ModuleType) or is_kernel(value):
                scope[name] = self._value(value)
        closure = None
        if fn.__closure__ is not None:
            cells = []
            for cell in fn.__closure__:
                try:
                    contents = cell.cell_contents
                except ValueError:  # a cell not yet assigned
                    cells.append(cell)
                    continue
                cells.append(types.CellType(self._value(contents)))
            closure = tuple(cells)
        copy = types.FunctionType(fn.__code__, scope, fn.__name__, fn.__defaults__, closure)
        copy.__kwdefaults__ = fn.__kwdefaults__
        copy.__qualname__ = fn.__qualname__
        self._done[id(fn)] = copy
        return copy


def run_kernel(
    kernel: Any,
    griddim: int | tuple[int, ...],
    blockdim: int | tuple[int, ...],
    args: Sequence[Any],
    dynshared: int = 0,
) -> None:
    """Run ``kernel[griddim, blockdim](*args)`` to completion on the simulator's
    machinery (``args``: simulator device arrays, numpy arrays, scalars)."""
    fn = _py_func(kernel)
    sim_kernel = importlib.import_module("numba.cuda.simulator.kernel")
    kernelapi = importlib.import_module("numba.cuda.simulator.kernelapi")
    devicearray = importlib.import_module("numba.cuda.simulator.cudadrv.devicearray")
    sim_args = importlib.import_module("numba.cuda.simulator.args")
    errors = importlib.import_module("numba.cuda.errors")

    grid_dim, block_dim = errors.normalize_kernel_dimensions(griddim, blockdim)
    fake_cuda = kernelapi.FakeCUDAModule(grid_dim, block_dim, dynshared)
    body = _Rewriter(fake_cuda).function(fn)
    debug = bool(getattr(kernel, "_debug", False))
    retr: list[Callable[[], Any]] = []

    def fake_arg(arg: Any) -> Any:
        if isinstance(arg, np.ndarray) and arg.ndim > 0:
            ret = sim_args.InOut(arg).to_device(retr)
        elif isinstance(arg, sim_args.ArgHint):
            ret = arg.to_device(retr)
        elif isinstance(arg, np.void):
            ret = devicearray.FakeCUDAArray(arg)
        else:
            ret = arg
        if isinstance(ret, devicearray.FakeCUDAArray):
            return devicearray.FakeWithinKernelCUDAArray(ret)
        return ret

    # The simulator's kernel context: a simulator-mode device function reached some
    # way the rewriter did not see (an attribute of a module) still finds the launch.
    with sim_kernel._push_kernel_context(fake_cuda):
        fake_args = [fake_arg(a) for a in args]
        for grid_point in np.ndindex(*grid_dim):
            manager = sim_kernel.BlockManager(body, grid_dim, block_dim, debug)
            manager.run(grid_point, *fake_args)
    for write_back in retr:
        write_back()
