"""numbaxfer's typed stubs for ``numba.cuda`` (numba-cuda 0.30.x).

Hand-written from the numba-cuda 0.30.4 sources; they cover the host API
(devices, contexts, memory, streams, events, ``jit``) and the most used
device-side names. Names of the real module that are not listed here
(``vectorize``, ``reduce``, ``compile_ptx``, ``cg``, ``fp16``, the numba scalar
types such as ``float32``, vector types, cache hints, ...) are ``Any`` (module
``__getattr__`` at the end), so code using them type-checks as before.

These stubs are not installed into site-packages: a project opts in with
``mypy_path`` (docs/install.md), so mypy's verdict on projects that do not use
numbaxfer never changes.

Device-side names (``threadIdx``, ``grid``, ``shared.array``, ``atomic.add``,
...) are typed with their meaning inside a kernel, so that kernel bodies
type-check. On the host they are stub classes / intrinsics that cannot be
called.

The types describe the real (GPU) implementation. With
``NUMBA_ENABLE_CUDASIM=1`` the module is the simulator, which differs:

* ``cuda.event()`` returns a simulator ``Event`` that has no ``query()``,
  records no timing (``elapsed_time()`` returns ``-1.0``), and
  ``cuda.stream()`` / ``default_stream()`` return a simulator ``stream`` with
  only ``synchronize()`` and ``auto_synchronize()`` (no ``handle``).
* ``jit`` returns ``FakeCUDAKernel``; ``device_array``, ``to_device`` and
  ``mapped_array`` return ``FakeCUDAArray``; ``to_device(..., to=ary)``
  returns ``None``; ``select_device`` and ``detect`` return ``None``;
  ``pinned`` takes a single array; ``managed_array`` has no ``stream`` /
  ``attach_global`` parameters.
* ``managed_array``, ``mapped``, ``mapped_array_like``, ``is_cuda_array``,
  ``as_cuda_array``, ``from_cuda_array_interface``, ``open_ipc_array``,
  ``event_elapsed_time`` and the profiling functions do not exist, and the
  device-side names (``grid``, ``threadIdx``, ``atomic``, ``shared``, ...) are
  not module attributes on the host (they are injected while a kernel runs).
"""  # noqa: PYI021

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import (
    Any,
    ClassVar,
    Literal,
    ParamSpec,
    Protocol,
    SupportsIndex,
    TypeAlias,
    TypeVar,
    overload,
    type_check_only,
)

import numpy as np
from numpy.typing import ArrayLike, DTypeLike, NDArray

from . import args as args
from . import cudadrv as cudadrv
from . import dispatcher as dispatcher
from .args import In as In
from .args import InOut as InOut
from .args import Out as Out
from .cudadrv import devicearray as devicearray
from .cudadrv import devices as devices
from .cudadrv import driver as driver
from .cudadrv.devicearray import (
    DeviceNDArray,
    DeviceNDArrayBase,
    DeviceRecord,
    ManagedNDArray,
    MappedNDArray,
    _HostDeviceNDArray,
)
from .cudadrv.devices import _DeviceList
from .cudadrv.devices import gpus as gpus
from .cudadrv.devices import require_context as require_context
from .cudadrv.driver import BaseCUDAMemoryManager as BaseCUDAMemoryManager
from .cudadrv.driver import Context, Device, Event, Stream
from .cudadrv.driver import GetIpcHandleMixin as GetIpcHandleMixin
from .cudadrv.driver import HostOnlyCUDAMemoryManager as HostOnlyCUDAMemoryManager
from .cudadrv.driver import IpcHandle as IpcHandle
from .cudadrv.driver import MappedMemory as MappedMemory
from .cudadrv.driver import MemoryInfo as MemoryInfo
from .cudadrv.driver import MemoryPointer as MemoryPointer
from .cudadrv.driver import PinnedMemory as PinnedMemory
from .cudadrv.driver import set_memory_manager as set_memory_manager
from .cudadrv.error import CudaSupportError as CudaSupportError
from .dispatcher import CUDADispatcher, _DeviceDispatcher

_P = ParamSpec("_P")
_R = TypeVar("_R")
_T = TypeVar("_T")
_ScalarT = TypeVar("_ScalarT", bound=np.generic)
_DeviceArrayT = TypeVar("_DeviceArrayT", bound=DeviceNDArrayBase[Any] | _HostDeviceNDArray[Any])
_IntT = TypeVar("_IntT", bound=int | np.integer[Any])
_FloatT = TypeVar("_FloatT", bound=float | np.floating[Any])

_StreamArg: TypeAlias = Stream | int
_ShapeLike: TypeAlias = int | Sequence[SupportsIndex]
_StridesLike: TypeAlias = int | Sequence[int]
_Order: TypeAlias = Literal["C", "F"]
_DTypeLikeOf: TypeAlias = type[_ScalarT] | np.dtype[_ScalarT]
_HostArray: TypeAlias = np.ndarray[Any, np.dtype[_ScalarT]]
# What ``device_array_like`` & co. read: shape, strides, dtype and flags.
_ArrayTemplate: TypeAlias = np.ndarray[Any, np.dtype[_ScalarT]] | DeviceNDArray[_ScalarT]

@type_check_only
class _SupportsCudaArrayInterface(Protocol):
    @property
    def __cuda_array_interface__(self) -> Mapping[str, Any]: ...

implementation: str

# ---------------------------------------------------------------------------
# Devices and contexts

def is_available() -> bool: ...
def is_supported_version() -> bool: ...
def cuda_error() -> str | None: ...
def detect() -> bool: ...

# Both return a ``weakref.proxy`` to the Device (``isinstance(d, Device)`` is False).
def select_device(device_id: int) -> Device: ...
def get_current_device() -> Device: ...
def current_context(devnum: int | None = None) -> Context: ...
def list_devices() -> _DeviceList: ...
def synchronize() -> None: ...
def close() -> None: ...
def is_float16_supported() -> bool: ...
def is_bfloat16_supported() -> bool: ...
def is_fp8_supported() -> bool: ...

# ---------------------------------------------------------------------------
# Memory allocation and transfer

@overload
def device_array(
    shape: _ShapeLike,
    dtype: _DTypeLikeOf[_ScalarT],
    strides: _StridesLike | None = None,
    order: _Order = "C",
    stream: _StreamArg = 0,
) -> DeviceNDArray[_ScalarT]: ...
@overload
def device_array(
    shape: _ShapeLike,
    *,
    strides: _StridesLike | None = None,
    order: _Order = "C",
    stream: _StreamArg = 0,
) -> DeviceNDArray[np.float64]: ...
@overload
def device_array(
    shape: _ShapeLike,
    dtype: DTypeLike = ...,
    strides: _StridesLike | None = None,
    order: _Order = "C",
    stream: _StreamArg = 0,
) -> DeviceNDArray[Any]: ...
def device_array_like(
    ary: _ArrayTemplate[_ScalarT], stream: _StreamArg = 0
) -> DeviceNDArray[_ScalarT]: ...
@overload
def pinned_array(
    shape: _ShapeLike,
    dtype: _DTypeLikeOf[_ScalarT],
    strides: _StridesLike | None = None,
    order: _Order = "C",
) -> NDArray[_ScalarT]: ...
@overload
def pinned_array(
    shape: _ShapeLike, *, strides: _StridesLike | None = None, order: _Order = "C"
) -> NDArray[np.float64]: ...
@overload
def pinned_array(
    shape: _ShapeLike,
    dtype: DTypeLike = ...,
    strides: _StridesLike | None = None,
    order: _Order = "C",
) -> NDArray[Any]: ...
def pinned_array_like(ary: _ArrayTemplate[_ScalarT]) -> NDArray[_ScalarT]: ...
@overload
def mapped_array(
    shape: _ShapeLike,
    dtype: _DTypeLikeOf[_ScalarT],
    strides: _StridesLike | None = None,
    order: _Order = "C",
    stream: _StreamArg = 0,
    portable: bool = False,
    wc: bool = False,
) -> MappedNDArray[_ScalarT]: ...
@overload
def mapped_array(
    shape: _ShapeLike,
    *,
    strides: _StridesLike | None = None,
    order: _Order = "C",
    stream: _StreamArg = 0,
    portable: bool = False,
    wc: bool = False,
) -> MappedNDArray[np.float64]: ...
@overload
def mapped_array(
    shape: _ShapeLike,
    dtype: DTypeLike = ...,
    strides: _StridesLike | None = None,
    order: _Order = "C",
    stream: _StreamArg = 0,
    portable: bool = False,
    wc: bool = False,
) -> MappedNDArray[Any]: ...
def mapped_array_like(
    ary: _ArrayTemplate[_ScalarT],
    stream: _StreamArg = 0,
    portable: bool = False,
    wc: bool = False,
) -> MappedNDArray[_ScalarT]: ...
@overload
def managed_array(
    shape: _ShapeLike,
    dtype: _DTypeLikeOf[_ScalarT],
    strides: _StridesLike | None = None,
    order: _Order = "C",
    stream: _StreamArg = 0,
    attach_global: bool = True,
) -> ManagedNDArray[_ScalarT]: ...
@overload
def managed_array(
    shape: _ShapeLike,
    *,
    strides: _StridesLike | None = None,
    order: _Order = "C",
    stream: _StreamArg = 0,
    attach_global: bool = True,
) -> ManagedNDArray[np.float64]: ...
@overload
def managed_array(
    shape: _ShapeLike,
    dtype: DTypeLike = ...,
    strides: _StridesLike | None = None,
    order: _Order = "C",
    stream: _StreamArg = 0,
    attach_global: bool = True,
) -> ManagedNDArray[Any]: ...

# Device memory (DeviceNDArray, mapped/managed arrays, ...) is returned as is.
@overload
def to_device(  # type: ignore[overload-overlap]
    obj: _DeviceArrayT, stream: _StreamArg = 0, copy: bool = True, to: None = None
) -> _DeviceArrayT: ...
@overload
def to_device(
    obj: _HostArray[_ScalarT], stream: _StreamArg = 0, copy: bool = True, to: None = None
) -> DeviceNDArray[_ScalarT]: ...
@overload
def to_device(
    obj: np.void, stream: _StreamArg = 0, copy: bool = True, to: None = None
) -> DeviceRecord: ...
@overload
def to_device(
    obj: _SupportsCudaArrayInterface | ArrayLike,
    stream: _StreamArg = 0,
    copy: bool = True,
    to: None = None,
) -> DeviceNDArray[Any]: ...
@overload
def to_device(
    obj: ArrayLike | DeviceNDArrayBase[Any], stream: _StreamArg, copy: bool, to: _DeviceArrayT
) -> _DeviceArrayT: ...
@overload
def to_device(
    obj: ArrayLike | DeviceNDArrayBase[Any],
    stream: _StreamArg = 0,
    copy: bool = True,
    *,
    to: _DeviceArrayT,
) -> _DeviceArrayT: ...
def is_cuda_array(obj: object) -> bool: ...
def as_cuda_array(obj: _SupportsCudaArrayInterface, sync: bool = True) -> DeviceNDArray[Any]: ...
def from_cuda_array_interface(
    desc: Mapping[str, Any], owner: object | None = None, sync: bool = True
) -> DeviceNDArray[Any]: ...
@contextmanager
def open_ipc_array(
    handle: bytes | Sequence[int],
    shape: _ShapeLike,
    dtype: DTypeLike,
    strides: _StridesLike | None = None,
    offset: int = 0,
) -> Iterator[DeviceNDArray[Any]]: ...

# Temporarily page-lock host arrays.
@contextmanager
def pinned(*arylist: NDArray[Any]) -> Iterator[None]: ...

# Temporarily map host arrays into the device; yields one device array for a
# single argument, a list of them otherwise.
@overload
def mapped(*, stream: _StreamArg = 0) -> AbstractContextManager[list[DeviceNDArray[Any]]]: ...
@overload
def mapped(
    ary: _HostArray[_ScalarT], /, *, stream: _StreamArg = 0
) -> AbstractContextManager[DeviceNDArray[_ScalarT]]: ...
@overload
def mapped(
    ary0: NDArray[Any], ary1: NDArray[Any], /, *arylist: NDArray[Any], stream: _StreamArg = 0
) -> AbstractContextManager[list[DeviceNDArray[Any]]]: ...

# Temporarily disable memory deallocation.
@contextmanager
def defer_cleanup() -> Iterator[None]: ...

# ---------------------------------------------------------------------------
# Streams and events

def stream() -> Stream: ...
def default_stream() -> Stream: ...
def legacy_default_stream() -> Stream: ...
def per_thread_default_stream() -> Stream: ...
def external_stream(ptr: int) -> Stream: ...
def event(timing: bool = True) -> Event: ...
def event_elapsed_time(evtstart: Event, evtend: Event) -> float: ...

# ---------------------------------------------------------------------------
# Profiling

@contextmanager
def profiling() -> Iterator[None]: ...
def profile_start() -> None: ...
def profile_stop() -> None: ...

# ---------------------------------------------------------------------------
# Compilation

# A signature: a string such as "void(float32[:])", a tuple of numba argument
# types, or a numba Signature object (untyped here).
_Signature: TypeAlias = str | tuple[Any, ...]
_Signatures: TypeAlias = _Signature | list[_Signature]
_Inline: TypeAlias = Literal["never", "always"] | bool
_LaunchBounds: TypeAlias = int | tuple[int] | tuple[int, int] | tuple[int, int, int]
# "default", "MaxL1" or "MaxShared" (any case), or a percentage (-1 to 100).
_Carveout: TypeAlias = str | int

# A kernel: `@cuda.jit` / `cuda.jit(kernel)`.
@overload
def jit(
    func_or_sig: Callable[..., None],
    device: Literal[False] = False,
    inline: _Inline = "never",
    forceinline: bool = False,
    link: Sequence[object] = (),
    debug: bool | None = None,
    opt: bool | None = None,
    lineinfo: bool = False,
    cache: bool = False,
    launch_bounds: _LaunchBounds | None = None,
    lto: bool | None = None,
    shared_memory_carveout: _Carveout | None = None,
    *,
    fastmath: bool = False,
    max_registers: int | None = None,
    extensions: Sequence[object] = ...,
) -> CUDADispatcher: ...

# A device function: `cuda.jit(func, device=True)`.
@overload
def jit(
    func_or_sig: Callable[_P, _R],
    device: Literal[True],
    inline: _Inline = "never",
    forceinline: bool = False,
    link: Sequence[object] = (),
    debug: bool | None = None,
    opt: bool | None = None,
    lineinfo: bool = False,
    cache: bool = False,
    launch_bounds: _LaunchBounds | None = None,
    lto: bool | None = None,
    shared_memory_carveout: _Carveout | None = None,
    *,
    fastmath: bool = False,
    max_registers: int | None = None,
    extensions: Sequence[object] = ...,
) -> _DeviceDispatcher[_P, _R]: ...

# A kernel decorator with options and/or signatures: `@cuda.jit("void(f4[:])")`,
# `@cuda.jit(lineinfo=True)`.
@overload
def jit(
    func_or_sig: _Signatures | None = None,
    device: Literal[False] = False,
    inline: _Inline = "never",
    forceinline: bool = False,
    link: Sequence[object] = (),
    debug: bool | None = None,
    opt: bool | None = None,
    lineinfo: bool = False,
    cache: bool = False,
    launch_bounds: _LaunchBounds | None = None,
    lto: bool | None = None,
    shared_memory_carveout: _Carveout | None = None,
    *,
    fastmath: bool = False,
    max_registers: int | None = None,
    extensions: Sequence[object] = ...,
) -> Callable[[Callable[..., None]], CUDADispatcher]: ...

# A device-function decorator: `@cuda.jit(device=True)`,
# `@cuda.jit("float32(float32)", device=True)`.
@overload
def jit(
    func_or_sig: _Signatures | None = None,
    *,
    device: Literal[True],
    inline: _Inline = "never",
    forceinline: bool = False,
    link: Sequence[object] = (),
    debug: bool | None = None,
    opt: bool | None = None,
    lineinfo: bool = False,
    cache: bool = False,
    launch_bounds: _LaunchBounds | None = None,
    lto: bool | None = None,
    shared_memory_carveout: _Carveout | None = None,
    fastmath: bool = False,
    max_registers: int | None = None,
    extensions: Sequence[object] = ...,
) -> Callable[[Callable[_P, _R]], _DeviceDispatcher[_P, _R]]: ...

# `device` not known statically.
@overload
def jit(
    func_or_sig: Callable[..., Any],
    device: bool,
    inline: _Inline = "never",
    forceinline: bool = False,
    link: Sequence[object] = (),
    debug: bool | None = None,
    opt: bool | None = None,
    lineinfo: bool = False,
    cache: bool = False,
    launch_bounds: _LaunchBounds | None = None,
    lto: bool | None = None,
    shared_memory_carveout: _Carveout | None = None,
    *,
    fastmath: bool = False,
    max_registers: int | None = None,
    extensions: Sequence[object] = ...,
) -> CUDADispatcher: ...
@overload
def jit(
    func_or_sig: _Signatures | None = None,
    *,
    device: bool,
    inline: _Inline = "never",
    forceinline: bool = False,
    link: Sequence[object] = (),
    debug: bool | None = None,
    opt: bool | None = None,
    lineinfo: bool = False,
    cache: bool = False,
    launch_bounds: _LaunchBounds | None = None,
    lto: bool | None = None,
    shared_memory_carveout: _Carveout | None = None,
    fastmath: bool = False,
    max_registers: int | None = None,
    extensions: Sequence[object] = ...,
) -> Callable[[Callable[..., Any]], CUDADispatcher]: ...

# Declares an external device function; the returned descriptor can be called
# from kernels (the simulator returns None).
def declare_device(
    name: str,
    sig: object,
    link: object | Sequence[object] | None = None,
    use_cooperative: bool = False,
    abi: Literal["numba", "c"] = "numba",
) -> Any: ...

class KernelRuntimeError(RuntimeError):
    tid: tuple[int, int, int] | None
    ctaid: tuple[int, int, int] | None
    msg: str
    def __init__(
        self,
        msg: str,
        tid: tuple[int, int, int] | None = None,
        ctaid: tuple[int, int, int] | None = None,
    ) -> None: ...

# ---------------------------------------------------------------------------
# Device-side API (valid only inside kernels and device functions)

class Dim3:
    # ``(x, y, z)``; each component is an ``int`` inside a kernel.
    x: ClassVar[int]
    y: ClassVar[int]
    z: ClassVar[int]

class threadIdx(Dim3): ...
class blockIdx(Dim3): ...
class blockDim(Dim3): ...
class gridDim(Dim3): ...

# Host-side these are stub classes; in a kernel they read as ints.
laneid: int
warpsize: int

@overload
def grid(ndim: Literal[1]) -> int: ...
@overload
def grid(ndim: Literal[2]) -> tuple[int, int]: ...
@overload
def grid(ndim: Literal[3]) -> tuple[int, int, int]: ...
@overload
def gridsize(ndim: Literal[1]) -> int: ...
@overload
def gridsize(ndim: Literal[2]) -> tuple[int, int]: ...
@overload
def gridsize(ndim: Literal[3]) -> tuple[int, int, int]: ...
def syncthreads() -> None: ...
def syncthreads_count(predicate: int | bool | np.integer[Any] | np.bool_) -> int: ...
def syncthreads_and(predicate: int | bool | np.integer[Any] | np.bool_) -> int: ...
def syncthreads_or(predicate: int | bool | np.integer[Any] | np.bool_) -> int: ...
def syncwarp(mask: int = ...) -> None: ...
def threadfence() -> None: ...
def threadfence_block() -> None: ...
def threadfence_system() -> None: ...
def activemask() -> int: ...
def lanemask_lt() -> int: ...
def shfl_sync(mask: int, value: _T, src_lane: int) -> _T: ...
def shfl_up_sync(mask: int, value: _T, delta: int) -> _T: ...
def shfl_down_sync(mask: int, value: _T, delta: int) -> _T: ...
def shfl_xor_sync(mask: int, value: _T, lane_mask: int) -> _T: ...
def all_sync(mask: int, predicate: object) -> bool: ...
def any_sync(mask: int, predicate: object) -> bool: ...
def eq_sync(mask: int, predicate: object) -> bool: ...
def ballot_sync(mask: int, predicate: object) -> int: ...
def match_any_sync(mask: int, value: float | np.number[Any]) -> int: ...
def match_all_sync(mask: int, value: float | np.number[Any]) -> tuple[int, bool]: ...
def popc(x: _IntT) -> _IntT: ...
def brev(x: _IntT) -> _IntT: ...
def clz(x: _IntT) -> _IntT: ...
def ffs(x: int | np.integer[Any]) -> int: ...
def fma(a: _FloatT, b: _FloatT, c: _FloatT) -> _FloatT: ...
def cbrt(a: _FloatT) -> _FloatT: ...
def selp(a: object, b: _T, c: _T) -> _T: ...
def nanosleep(ns: int) -> None: ...

class shared:
    # Shared-memory arrays.
    @overload
    @staticmethod
    def array(
        shape: _ShapeLike, dtype: _DTypeLikeOf[_ScalarT], alignment: int | None = None
    ) -> NDArray[_ScalarT]: ...
    @overload
    @staticmethod
    def array(shape: _ShapeLike, dtype: object, alignment: int | None = None) -> NDArray[Any]: ...

class local:
    # Thread-local arrays.
    @overload
    @staticmethod
    def array(
        shape: _ShapeLike, dtype: _DTypeLikeOf[_ScalarT], alignment: int | None = None
    ) -> NDArray[_ScalarT]: ...
    @overload
    @staticmethod
    def array(shape: _ShapeLike, dtype: object, alignment: int | None = None) -> NDArray[Any]: ...

class const:
    # Constant-memory arrays.
    @staticmethod
    def array_like(ndarray: NDArray[_ScalarT]) -> NDArray[_ScalarT]: ...

_AtomicArray: TypeAlias = np.ndarray[Any, np.dtype[_ScalarT]] | DeviceNDArray[_ScalarT]
_AtomicIndex: TypeAlias = SupportsIndex | tuple[SupportsIndex, ...]
_AtomicValue: TypeAlias = float | np.number[Any] | np.bool_

class atomic:
    # Atomic operations on array elements; each returns the old value.
    @staticmethod
    def add(ary: _AtomicArray[_ScalarT], idx: _AtomicIndex, val: _AtomicValue) -> _ScalarT: ...
    @staticmethod
    def sub(ary: _AtomicArray[_ScalarT], idx: _AtomicIndex, val: _AtomicValue) -> _ScalarT: ...
    @staticmethod
    def and_(ary: _AtomicArray[_ScalarT], idx: _AtomicIndex, val: _AtomicValue) -> _ScalarT: ...
    @staticmethod
    def or_(ary: _AtomicArray[_ScalarT], idx: _AtomicIndex, val: _AtomicValue) -> _ScalarT: ...
    @staticmethod
    def xor(ary: _AtomicArray[_ScalarT], idx: _AtomicIndex, val: _AtomicValue) -> _ScalarT: ...
    @staticmethod
    def inc(ary: _AtomicArray[_ScalarT], idx: _AtomicIndex, val: _AtomicValue) -> _ScalarT: ...
    @staticmethod
    def dec(ary: _AtomicArray[_ScalarT], idx: _AtomicIndex, val: _AtomicValue) -> _ScalarT: ...
    @staticmethod
    def exch(ary: _AtomicArray[_ScalarT], idx: _AtomicIndex, val: _AtomicValue) -> _ScalarT: ...
    @staticmethod
    def max(ary: _AtomicArray[_ScalarT], idx: _AtomicIndex, val: _AtomicValue) -> _ScalarT: ...
    @staticmethod
    def min(ary: _AtomicArray[_ScalarT], idx: _AtomicIndex, val: _AtomicValue) -> _ScalarT: ...
    @staticmethod
    def nanmax(ary: _AtomicArray[_ScalarT], idx: _AtomicIndex, val: _AtomicValue) -> _ScalarT: ...
    @staticmethod
    def nanmin(ary: _AtomicArray[_ScalarT], idx: _AtomicIndex, val: _AtomicValue) -> _ScalarT: ...
    # Operates on ``ary[0]`` of a 1D array.
    @staticmethod
    def compare_and_swap(
        ary: _AtomicArray[_ScalarT], old: _AtomicValue, val: _AtomicValue
    ) -> _ScalarT: ...
    @staticmethod
    def cas(
        ary: _AtomicArray[_ScalarT], idx: _AtomicIndex, old: _AtomicValue, val: _AtomicValue
    ) -> _ScalarT: ...

# Every name of the real module that these stubs do not describe is Any, so that
# opting in to the stubs never turns working code into attr-defined errors.
from _typeshed import Incomplete as _Incomplete  # noqa: E402

def __getattr__(name: str) -> _Incomplete: ...
