"""Device arrays: ``DeviceArray[Cap, DT]``."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

import numpy as np
from numpy.typing import DTypeLike

from ._backend import Backend, get_backend
from ._host import _LendScope, _normalise_shape
from ._ownership import BorrowFlag, Lent, MoveRecord, Owned, caller_site

if TYPE_CHECKING:
    from ._stream import _StreamCore

__all__ = ["DeviceArray", "DeviceOrder", "device_array"]

Cap = TypeVar("Cap", bound=Lent, covariant=True)
DT = TypeVar("DT", bound=np.generic)
_numbers = itertools.count(1)


class DeviceOrder:
    """Which streams touched a device array: the last writer and the readers since.

    Shared by an array and the handles lent from it. Stream operations consult it to
    make cross-stream uses wait on the device (see ``Stream._order``).
    """

    __slots__ = ("readers", "writer")

    def __init__(self) -> None:
        self.writer: _StreamCore | None = None
        self.readers: list[_StreamCore] = []


class DeviceArray(Generic[Cap, DT]):
    """An array in GPU memory with an ownership capability.

    Device work is stream-ordered (rule 4): a copy or kernel enqueued on a stream may
    use a device array that earlier work on the *same* stream writes, with no host
    synchronization. When work on another stream uses it, numbaxfer makes that stream
    wait for the earlier work on the device (an event wait), never on the host.

    ``DeviceArray[Owned, DT]`` may be written (as a copy destination or kernel
    argument), lent and freed; ``DeviceArray[Lent, DT]`` may only be read (as a copy
    source). Create one with :func:`device_array`.
    """

    __slots__ = ("__weakref__", "_backend", "_buf", "_dtype", "_flag", "_order", "_shape")

    _backend: Backend
    _buf: Any
    _flag: BorrowFlag
    _shape: tuple[int, ...]
    _dtype: np.dtype[DT]
    _order: DeviceOrder

    def __init__(self) -> None:
        raise TypeError("DeviceArray is not created directly: use nx.device_array(shape, dtype).")

    @classmethod
    def _adopt(
        cls,
        backend: Backend,
        buf: Any,
        shape: tuple[int, ...],
        dtype: np.dtype[Any],
        label: str,
        lent_at: tuple[str, int] | None = None,
    ) -> DeviceArray[Any, Any]:
        self = object.__new__(cls)
        self._backend = backend
        self._buf = buf
        self._shape = shape
        self._dtype = dtype
        self._flag = BorrowFlag(label, lent_at)
        self._order = DeviceOrder()
        return self

    @property
    def shape(self) -> tuple[int, ...]:
        return self._shape

    @property
    def dtype(self) -> np.dtype[DT]:
        return self._dtype

    @property
    def size(self) -> int:
        return int(np.prod(self._shape, dtype=np.int64))

    @property
    def nbytes(self) -> int:
        return self.size * self._dtype.itemsize

    @property
    def label(self) -> str:
        """The name numbaxfer uses for this array in error messages."""
        return self._flag.label

    def __repr__(self) -> str:
        return f"<{self._flag.label}: {self._flag.state()}>"

    def lend(self) -> _LendScope[DeviceArray[Lent, DT]]:
        """``with dev.lend() as view:`` gives a read-only ``DeviceArray[Lent, DT]``.

        The lent handle shares the memory and its stream ordering; it may be a copy
        source but never a destination. While lent, the owner may not be freed or used
        as a destination.
        """
        site = caller_site()
        self._flag.begin_lend(site)
        lent: DeviceArray[Lent, DT] = DeviceArray._adopt(
            self._backend,
            self._buf,
            self._shape,
            self._dtype,
            self._flag.name,
            site,
        )
        lent._order = self._order
        return _LendScope(self._flag, site, lent, lent._flag)

    def free(self: DeviceArray[Owned, DT]) -> None:
        """Drop this handle's device memory (returned to numba's allocator when the
        work already enqueued on it is ordered before any reuse).

        Refused while lent; afterwards every use raises.
        """
        self._flag.move(MoveRecord("free", "", caller_site()))
        self._buf = None


@overload
def device_array(shape: int | tuple[int, ...], dtype: type[DT]) -> DeviceArray[Owned, DT]: ...
@overload
def device_array(shape: int | tuple[int, ...], dtype: np.dtype[DT]) -> DeviceArray[Owned, DT]: ...
@overload
def device_array(
    shape: int | tuple[int, ...], dtype: DTypeLike = ...
) -> DeviceArray[Owned, Any]: ...
def device_array(shape: int | tuple[int, ...], dtype: DTypeLike = np.float64) -> Any:
    """Allocate a device array (contents undefined), owned by the caller."""
    backend = get_backend()
    dims = _normalise_shape(shape)
    dt = np.dtype(dtype)
    buf = backend.alloc_device(dims, dt)
    text = "x".join(str(d) for d in dims) or "scalar"
    label = f"DeviceArray#{next(_numbers)}[{dt}, {text}]"
    return DeviceArray._adopt(backend, buf, dims, dt, label)
