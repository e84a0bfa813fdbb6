"""numbaxfer's typed stubs for ``numba.cuda.dispatcher`` (numba-cuda 0.30.x).

``@cuda.jit`` returns a ``CUDADispatcher``. A kernel is launched through a
launch configuration: ``kernel[griddim, blockdim](*args)`` or
``kernel[griddim, blockdim, stream, sharedmem](*args)``; calling the dispatcher
directly raises ``ValueError`` at run time, so ``CUDADispatcher`` deliberately
has no ``__call__`` here. Device functions (``@cuda.jit(device=True)``) are
``CUDADispatcher`` objects too; the stubs give them the stub-only type
``_DeviceDispatcher``, which is callable with the decorated function's
signature (as it is from inside a kernel).

With ``NUMBA_ENABLE_CUDASIM=1``, ``cuda.jit`` returns
``numba.cuda.simulator.kernel.FakeCUDAKernel`` objects instead.
"""  # noqa: PYI021

from collections import Counter
from collections.abc import Callable
from types import MethodType
from typing import (
    IO,
    Any,
    Generic,
    NamedTuple,
    ParamSpec,
    TypeAlias,
    TypeVar,
    overload,
    type_check_only,
)

import numpy as np
from typing_extensions import Self

from .cudadrv.driver import Stream

_P = ParamSpec("_P")
_R = TypeVar("_R")

_StreamArg: TypeAlias = Stream | int
_DimInt: TypeAlias = int | np.integer[Any]
# An int, or a tuple of 1 to 3 ints; missing dimensions default to 1.
_Dim: TypeAlias = _DimInt | tuple[_DimInt, ...]
_LaunchArgs: TypeAlias = (
    tuple[_Dim, _Dim] | tuple[_Dim, _Dim, _StreamArg] | tuple[_Dim, _Dim, _StreamArg, int]
)
# Argument-type tuples, as used for the keys of ``CUDADispatcher.overloads``.
_ArgTypes: TypeAlias = tuple[Any, ...]

class _CompileStats(NamedTuple):
    cache_path: str | None
    cache_hits: Counter[Any]
    cache_misses: Counter[Any]

class _LaunchConfiguration:
    # A configured kernel launch: ``kernel[griddim, blockdim, stream, sharedmem]``.
    dispatcher: CUDADispatcher
    griddim: tuple[int, int, int]
    blockdim: tuple[int, int, int]
    # A ``cuda.core`` Stream (converted from the ``stream`` launch argument).
    stream: Any
    sharedmem: int
    # Host-side callbacks run just before launch as ``callback(kernel, launch_config)``.
    pre_launch_callbacks: list[Callable[[Any, _LaunchConfiguration], object]]
    def __init__(
        self,
        dispatcher: CUDADispatcher,
        griddim: tuple[int, int, int],
        blockdim: tuple[int, int, int],
        stream: _StreamArg,
        sharedmem: int,
    ) -> None: ...
    def __call__(self, *args: object) -> None: ...
    @property
    def args(self) -> Any: ...

class ForAll:
    # A 1D launch configuration for ``ntasks`` tasks (``kernel.forall(n)``).
    dispatcher: CUDADispatcher
    ntasks: int
    thread_per_block: int
    stream: _StreamArg
    sharedmem: int
    def __init__(
        self,
        dispatcher: CUDADispatcher,
        ntasks: int,
        tpb: int,
        stream: _StreamArg,
        sharedmem: int,
    ) -> None: ...
    def __call__(self, *args: object) -> None: ...

class CUDADispatcher:
    # A CUDA kernel (or device function) created by ``numba.cuda.jit``.
    py_func: Callable[..., Any]
    targetoptions: dict[str, Any]
    overloads: dict[_ArgTypes, Any]
    specializations: dict[Any, CUDADispatcher]
    doc: str | None
    # Copied from the decorated function by functools.update_wrapper.
    __name__: str
    __qualname__: str
    __wrapped__: Callable[..., Any]
    def __init__(
        self,
        py_func: Callable[..., Any],
        targetoptions: dict[str, Any],
        pipeline_class: type[Any] = ...,
    ) -> None: ...
    def dump(self, tab: str = "") -> None: ...
    def enable_caching(self) -> None: ...
    @overload
    def __get__(self, obj: None, objtype: type[Any] | None = None) -> Self: ...
    @overload
    def __get__(self, obj: object, objtype: type[Any] | None = None) -> MethodType: ...
    def configure(
        self, griddim: _Dim, blockdim: _Dim, stream: _StreamArg = 0, sharedmem: int = 0
    ) -> _LaunchConfiguration: ...
    def __getitem__(self, args: _LaunchArgs) -> _LaunchConfiguration: ...
    def mark_launch_config_sensitive(self) -> None: ...
    def forall(
        self, ntasks: int, tpb: int = 0, stream: _StreamArg = 0, sharedmem: int = 0
    ) -> ForAll: ...
    @property
    def extensions(self) -> list[Any] | None: ...
    def call(self, args: tuple[object, ...], launch_config: _LaunchConfiguration) -> None: ...
    def typeof_pyval(self, val: object) -> Any: ...
    def specialize(self, *args: object) -> CUDADispatcher: ...
    @property
    def specialized(self) -> bool: ...
    @property
    def signatures(self) -> list[_ArgTypes]: ...
    @property
    def nopython_signatures(self) -> list[Any]: ...
    def disable_compile(self, val: bool = True) -> None: ...
    def get_overload(self, sig: Any) -> Any: ...
    # ``signature`` here is a numba Signature object (``signature.args`` is
    # used); without it, a specialized kernel gives an int and an unspecialized
    # one a dict keyed by argument-type tuples.
    def get_regs_per_thread(self, signature: Any = None) -> int | dict[_ArgTypes, int]: ...
    def get_const_mem_size(self, signature: Any = None) -> int | dict[_ArgTypes, int]: ...
    def get_shared_mem_per_block(self, signature: Any = None) -> int | dict[_ArgTypes, int]: ...
    def get_max_threads_per_block(self, signature: Any = None) -> int | dict[_ArgTypes, int]: ...
    def get_local_mem_per_thread(self, signature: Any = None) -> int | dict[_ArgTypes, int]: ...
    def compile_device(self, args: _ArgTypes, return_type: Any = None) -> Any: ...
    def compile(self, sig: Any) -> Any: ...
    def get_compile_result(self, sig: Any) -> Any: ...
    def recompile(self) -> None: ...
    @property
    def stats(self) -> _CompileStats: ...
    def get_metadata(self, signature: _ArgTypes | None = None) -> Any: ...
    def get_function_type(self) -> Any: ...
    # The inspect_* methods take an argument-type tuple (a key of ``overloads``);
    # without one they return a dict for all compiled signatures.
    @overload
    def inspect_llvm(self, signature: None = None) -> dict[_ArgTypes, str]: ...
    @overload
    def inspect_llvm(self, signature: _ArgTypes) -> str: ...
    @overload
    def inspect_asm(self, signature: None = None) -> dict[_ArgTypes, str]: ...
    @overload
    def inspect_asm(self, signature: _ArgTypes) -> str: ...
    @overload
    def inspect_lto_ptx(self, signature: None = None) -> dict[_ArgTypes, str]: ...
    @overload
    def inspect_lto_ptx(self, signature: _ArgTypes) -> str: ...
    @overload
    def inspect_sass(self, signature: None = None) -> dict[_ArgTypes, str]: ...
    @overload
    def inspect_sass(self, signature: _ArgTypes) -> str: ...
    @overload
    def inspect_sass_cfg(self, signature: None = None) -> dict[_ArgTypes, Any]: ...
    @overload
    def inspect_sass_cfg(self, signature: _ArgTypes) -> Any: ...
    def inspect_types(self, file: IO[str] | None = None) -> None: ...

@type_check_only
class _DeviceDispatcher(CUDADispatcher, Generic[_P, _R]):
    # Stub-only: a ``CUDADispatcher`` compiled with ``device=True``.
    #
    #     At run time this is a plain ``CUDADispatcher``; calling it is only valid
    #     from inside a kernel or another device function.
    def __call__(self, *args: _P.args, **kwargs: _P.kwargs) -> _R: ...

# Every name of the real module that these stubs do not describe is Any, so that
# opting in to the stubs never turns working code into attr-defined errors.
from _typeshed import Incomplete as _Incomplete  # noqa: E402

def __getattr__(name: str) -> _Incomplete: ...
