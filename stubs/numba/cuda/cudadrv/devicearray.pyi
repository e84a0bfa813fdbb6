"""numbaxfer's typed stubs for ``numba.cuda.cudadrv.devicearray`` (numba-cuda 0.30.x).

``DeviceNDArray`` (and ``DeviceNDArrayBase``) are generic over the NumPy scalar
type, like ``numpy.ndarray``; the parameter defaults to ``Any``, so a bare
``DeviceNDArray`` annotation is accepted under ``mypy --strict``.

Notes on run-time behaviour that the types cannot express:

* ``DeviceNDArray.split()`` returns a generator (the simulator returns a list);
  it is typed as ``Iterator``.
* Indexing a ``DeviceNDArray`` with a full integer index copies one element to
  the host and returns a NumPy scalar; slicing returns a ``DeviceNDArray``.
  ``gpu_data`` is usually an ``OwnedPointer``, not a ``MemoryPointer``.
* ``MappedNDArray`` / ``ManagedNDArray`` (from ``cuda.mapped_array()`` /
  ``cuda.managed_array()``) are ``numpy.ndarray`` subclasses with
  ``DeviceNDArrayBase`` *first* in their MRO, so ``.view()``, ``.T``,
  ``.transpose()`` and ``.squeeze()`` are the device-array versions, not
  NumPy's: ``m.view(dtype)`` returns a ``DeviceNDArray``, ``m.T`` raises
  ``NotImplementedError`` unless ``m`` is 2D (then it launches a transpose
  kernel), and ``m.squeeze()`` raises ``AttributeError``. The stubs keep
  NumPy's signatures for these. They never set ``alloc_size``, so
  ``copy_to_host()`` / ``copy_to_device()`` raise ``AttributeError`` on them;
  those two are left out of their stubs.
* With ``NUMBA_ENABLE_CUDASIM=1`` none of these classes exists: device arrays
  are ``numba.cuda.simulator.cudadrv.devicearray.FakeCUDAArray`` objects, and
  ``from numba.cuda.cudadrv.devicearray import DeviceNDArray`` raises
  ``ImportError``; import these names under ``typing.TYPE_CHECKING`` in code
  that must also run on the simulator. (The same holds for ``Stream``,
  ``Event``, ``Context`` and ``Device`` in ``numba.cuda.cudadrv.driver``.)
"""  # noqa: PYI021

from collections.abc import Iterator, Sequence
from ctypes import c_size_t, c_void_p
from types import TracebackType
from typing import (
    Any,
    ClassVar,
    Generic,
    Literal,
    SupportsIndex,
    TypeAlias,
    overload,
    type_check_only,
)

import numpy as np
from numpy.typing import ArrayLike, DTypeLike, NDArray
from typing_extensions import Self, TypeVar

from .driver import IpcHandle, ManagedMemory, MappedMemory, MemoryPointer, OwnedPointer, Stream

_ScalarT = TypeVar("_ScalarT", bound=np.generic)
_ScalarT_co = TypeVar("_ScalarT_co", bound=np.generic, covariant=True, default=Any)
_ArrayT = TypeVar("_ArrayT", bound=np.ndarray[Any, Any])

_StreamArg: TypeAlias = Stream | int
_ShapeLike: TypeAlias = int | Sequence[SupportsIndex]
_StridesLike: TypeAlias = int | Sequence[int]
_Order: TypeAlias = Literal["C", "F", "A"]
_GpuData: TypeAlias = MemoryPointer | OwnedPointer
_DTypeLikeOf: TypeAlias = type[_ScalarT] | np.dtype[_ScalarT]

def is_cuda_ndarray(obj: object) -> bool: ...
def verify_cuda_ndarray_interface(obj: object) -> None: ...
def require_cuda_ndarray(obj: object) -> None: ...

class DeviceNDArrayBase(Generic[_ScalarT_co]):
    # An on-GPU NDArray representation (base of DeviceNDArray and DeviceRecord).
    __cuda_memory__: ClassVar[bool]
    __cuda_ndarray__: ClassVar[bool]
    ndim: int
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    size: int
    alloc_size: int
    gpu_data: _GpuData
    stream: _StreamArg
    def __init__(
        self,
        shape: _ShapeLike,
        strides: _StridesLike,
        dtype: DTypeLike,
        stream: _StreamArg = 0,
        gpu_data: _GpuData | None = None,
    ) -> None: ...
    @property
    def dtype(self) -> np.dtype[_ScalarT_co]: ...
    @property
    def __cuda_array_interface__(self) -> dict[str, Any]: ...
    def bind(self, stream: _StreamArg = 0) -> Self: ...
    @property
    def T(self) -> DeviceNDArray[_ScalarT_co]: ...
    def transpose(self, axes: Sequence[int] | None = None) -> DeviceNDArray[_ScalarT_co]: ...
    @property
    def device_ctypes_pointer(self) -> c_size_t | c_void_p: ...
    def copy_to_device(
        self, ary: ArrayLike | DeviceNDArrayBase[Any], stream: _StreamArg = 0
    ) -> None: ...
    @overload
    def copy_to_host(self, ary: None = None, stream: _StreamArg = 0) -> NDArray[_ScalarT_co]: ...
    @overload
    def copy_to_host(self, ary: _ArrayT, stream: _StreamArg = 0) -> _ArrayT: ...
    def split(
        self, section: int, stream: _StreamArg = 0
    ) -> Iterator[DeviceNDArray[_ScalarT_co]]: ...
    def as_cuda_arg(self) -> _GpuData: ...
    def get_ipc_handle(self) -> IpcArrayHandle: ...
    def squeeze(
        self, axis: int | tuple[int, ...] | None = None, stream: _StreamArg = 0
    ) -> DeviceNDArray[_ScalarT_co]: ...
    @overload
    def view(self, dtype: _DTypeLikeOf[_ScalarT]) -> DeviceNDArray[_ScalarT]: ...
    @overload
    def view(self, dtype: DTypeLike) -> DeviceNDArray[Any]: ...
    @property
    def nbytes(self) -> int: ...

class DeviceRecord(DeviceNDArrayBase[np.void]):
    # An on-GPU record (structured scalar).
    def __init__(
        self, dtype: DTypeLike, stream: _StreamArg = 0, gpu_data: _GpuData | None = None
    ) -> None: ...
    @property
    def flags(self) -> dict[str, bool]: ...
    # A field: a host scalar, a DeviceRecord (nested record) or a DeviceNDArray.
    def __getitem__(self, item: str) -> Any: ...
    def getitem(self, item: str, stream: _StreamArg = 0) -> Any: ...
    def __setitem__(self, key: str, value: Any) -> None: ...
    def setitem(self, key: str, value: Any, stream: _StreamArg = 0) -> None: ...

class DeviceNDArray(DeviceNDArrayBase[_ScalarT_co]):
    # An on-GPU array, as returned by ``cuda.to_device()`` / ``cuda.device_array()``.
    def is_f_contiguous(self) -> bool: ...
    def is_c_contiguous(self) -> bool: ...
    @property
    def flags(self) -> dict[str, bool]: ...
    # Always copies to the host; ``copy=False`` raises ValueError.
    def __array__(
        self, dtype: DTypeLike | None = None, copy: bool | None = None
    ) -> NDArray[Any]: ...
    def __len__(self) -> int: ...
    @overload
    def reshape(self, shape: Sequence[int], /, *, order: _Order = "C") -> Self: ...
    @overload
    def reshape(self, *newshape: int, order: _Order = "C") -> Self: ...
    def ravel(self, order: _Order = "C", stream: _StreamArg = 0) -> Self: ...
    # Indexing returns a sub-array (same class), a DeviceRecord, or a host scalar
    # (a copy of the element), depending on the index and dtype.
    def __getitem__(self, item: Any) -> Any: ...
    def getitem(self, item: Any, stream: _StreamArg = 0) -> Any: ...
    def __setitem__(self, key: Any, value: ArrayLike | DeviceNDArrayBase[Any]) -> None: ...
    def setitem(
        self, key: Any, value: ArrayLike | DeviceNDArrayBase[Any], stream: _StreamArg = 0
    ) -> None: ...

class IpcArrayHandle:
    # A picklable IPC handle for a device array; use as a context manager.
    def __init__(self, ipc_handle: IpcHandle, array_desc: dict[str, Any]) -> None: ...
    def open(self) -> DeviceNDArray: ...
    def close(self) -> None: ...
    def __enter__(self) -> DeviceNDArray: ...
    def __exit__(
        self,
        type: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None: ...

@type_check_only
class _HostDeviceNDArray(np.ndarray[tuple[Any, ...], np.dtype[_ScalarT_co]]):
    # Stub-only common base of MappedNDArray / ManagedNDArray: the members of
    # DeviceNDArrayBase that work on them (see the module docstring).
    __cuda_memory__: ClassVar[bool]
    __cuda_ndarray__: ClassVar[bool]
    stream: _StreamArg
    @property
    def __cuda_array_interface__(self) -> dict[str, Any]: ...
    @property
    def device_ctypes_pointer(self) -> c_size_t | c_void_p: ...
    def bind(self, stream: _StreamArg = 0) -> Self: ...
    def as_cuda_arg(self) -> _GpuData: ...
    def get_ipc_handle(self) -> IpcArrayHandle: ...
    def split(
        self, section: int, stream: _StreamArg = 0
    ) -> Iterator[DeviceNDArray[_ScalarT_co]]: ...

class MappedNDArray(_HostDeviceNDArray[_ScalarT_co]):
    # A host ``ndarray`` backed by pinned memory mapped into the device.
    gpu_data: MappedMemory
    def device_setup(self, gpu_data: MappedMemory, stream: _StreamArg = 0) -> None: ...

class ManagedNDArray(_HostDeviceNDArray[_ScalarT_co]):
    # A host ``ndarray`` backed by CUDA managed (unified) memory.
    gpu_data: ManagedMemory
    def device_setup(self, gpu_data: ManagedMemory, stream: _StreamArg = 0) -> None: ...

def from_array_like(
    ary: np.ndarray[Any, np.dtype[_ScalarT]],
    stream: _StreamArg = 0,
    gpu_data: _GpuData | None = None,
) -> DeviceNDArray[_ScalarT]: ...
def from_record_like(
    rec: np.void, stream: _StreamArg = 0, gpu_data: _GpuData | None = None
) -> DeviceRecord: ...
def is_contiguous(ary: NDArray[Any] | DeviceNDArrayBase[Any]) -> bool: ...
def sentry_contiguous(ary: NDArray[Any] | DeviceNDArrayBase[Any]) -> None: ...
def auto_device(
    obj: object, stream: _StreamArg = 0, copy: bool = True, user_explicit: bool = False
) -> tuple[DeviceNDArrayBase[Any], bool]: ...

# Every name of the real module that these stubs do not describe is Any, so that
# opting in to the stubs never turns working code into attr-defined errors.
from _typeshed import Incomplete as _Incomplete  # noqa: E402

def __getattr__(name: str) -> _Incomplete: ...
