"""Device arrays: ``DeviceArray[Cap, DT]``."""

from __future__ import annotations

from typing import Any, Generic, Literal, TypeVar, final, overload

import numpy as np
from numpy.typing import DTypeLike

from ._backend import Backend, on_device
from ._errors import BorrowError, OwnershipError, where
from ._lifetime import keep_alive
from ._order import DeviceOrder, fence_events
from ._ownership import (
    STATE_LOCK,
    BorrowFlag,
    LendScope,
    Lent,
    MoveRecord,
    Owned,
    Unique,
    caller_site,
)
from ._util import check_dtype, label, normalise_shape

__all__ = ["DeviceArray", "device_array"]

Cap = TypeVar("Cap", bound=Lent, covariant=True)
DT = TypeVar("DT", bound=np.generic)


@final
class DeviceArray(Unique, Generic[Cap, DT]):
    """An array in GPU memory with an ownership capability.

    Device work is stream-ordered (rule 4): a copy or kernel enqueued on a stream may
    use a device array that earlier work on the *same* stream writes, with no host
    synchronization. When work on another stream uses it, numbaxfer makes that stream
    wait for the earlier work on the device (an event wait), never on the host.

    ``DeviceArray[Owned, DT]`` may be written (as a copy destination or kernel
    argument), lent and freed; ``DeviceArray[Lent, DT]`` may only be read (as a copy
    source). Create one with :func:`device_array`.
    """

    __slots__ = (
        "__weakref__",
        "_backend",
        "_buf",
        "_dtype",
        "_flag",
        "_held_by",
        "_layout",
        "_made_at",
        "_order",
        "_part",
        "_shape",
    )

    _backend: Backend
    _buf: Any
    _flag: BorrowFlag
    _shape: tuple[int, ...]
    _dtype: np.dtype[DT]
    _order: DeviceOrder
    #: Set on a mapping's device view: what ends it (it may not be freed by itself).
    _held_by: str | None
    #: "C" or "F": the memory order (copies need both ends in the same one)
    _layout: str
    #: For a part made by ``nx.split``: (its split, its index there).
    _part: tuple[Any, int] | None
    #: Where nx.device_array() made it (None for adopted arrays and views).
    _made_at: tuple[str, int] | None

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
        lent_from: DeviceArray[Any, Any] | None = None,
        lent_at: tuple[str, int] | None = None,
    ) -> DeviceArray[Any, Any]:
        self = object.__new__(cls)
        self._backend = backend
        self._buf = buf
        self._shape = shape
        self._dtype = dtype
        self._held_by = None
        self._layout = "C" if lent_from is None else lent_from._layout
        self._part = None
        self._made_at = None if lent_from is None else lent_from._made_at
        if lent_from is None:
            self._flag = BorrowFlag(label)
            self._order = DeviceOrder(label)
            self._order.owner = self._flag
        else:  # shares the memory and its stream ordering
            self._flag = BorrowFlag(label, lent_at, lent_from._flag)
            self._order = lent_from._order
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
    def device(self) -> int:
        """The ordinal of the GPU this array lives on (``device=`` at allocation)."""
        return self._backend.device

    @property
    def nbytes(self) -> int:
        return self.size * self._dtype.itemsize

    @property
    def label(self) -> str:
        """The name numbaxfer uses for this array in error messages."""
        return self._flag.label

    def __repr__(self) -> str:
        return f"<{self._flag.label}: {self._flag.state()}>"

    def lend(self) -> LendScope[DeviceArray[Lent, DT]]:
        """``with dev.lend() as view:`` gives a read-only ``DeviceArray[Lent, DT]``.

        The lent handle shares the memory and its stream ordering; it may be a copy
        source but never a destination. While lent, the owner may not be freed or used
        as a destination.
        """
        site = caller_site()
        self._flag.check_read("lend()")
        lent: DeviceArray[Lent, DT] = DeviceArray._adopt(
            self._backend, self._buf, self._shape, self._dtype, self._flag.name, self, site
        )
        return LendScope(self._flag, site, lent, lent._flag)

    def free(self: DeviceArray[Owned, DT]) -> None:
        """Release this array. Refused while lent; afterwards every use raises.

        Work already enqueued on it may still be running: the memory is kept alive
        until an event recorded now on every stream that touched it has completed,
        then handed back to numba's allocator. Never blocks.
        """
        site = caller_site()
        with STATE_LOCK:
            if self._held_by is not None and self._flag.is_usable:
                raise BorrowError(
                    f"cannot free {self.label} at {where(site)}: it is {self._held_by}. "
                    "Let its owner end it (mapping.wait() gives a mapped array back; a "
                    "pipeline's buffers go with the pipeline)."
                )
            self._flag.check_writable("free", site)
            events = fence_events(self._order)  # backend calls, before anything changes
            self._flag.move(MoveRecord("free", "", site))
            for event in events:
                keep_alive(self._backend, event, self._buf)
            self._buf = None

    def as_numba(self) -> Any:
        """The numba device array behind a LENT handle, for code that wants numba's own
        array (``cuda.jit`` kernels launched by that code, numba's copy methods).

        An escape hatch: numba can write through it and order it on any stream; numbaxfer
        sees none of that. Use it only for reads, inside the lend block, on work you have
        ordered (``stream.wait_for``) yourself."""
        if not self._flag.read_only:
            raise BorrowError(
                f"{self.label}.as_numba() is for lent handles only: `with dev.lend() as "
                "view: view.as_numba()`; the owner keeps using the numbaxfer handle."
            )
        self._flag.check_read("as_numba()")
        return self._backend.kernel_arg(self._buf)

    def __dlpack__(
        self,
        *,
        stream: int | None = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[int, int] | None = None,
        copy: bool | None = None,
    ) -> Any:
        """DLPack export of a LENT handle (read-only where the consumer speaks DLPack
        1.0+): ``torch.from_dlpack(view)``, ``cupy.from_dlpack(view)``. The consumer's
        ``stream`` is made to wait, on the device, for the array's last writers (no host
        sync); ``stream=-1`` skips that. numbaxfer never copies (``copy=True`` refused)."""
        interface = self.__cuda_array_interface__  # checks: lent, alive, a GPU
        if copy:
            raise BufferError(f"{self.label}: numbaxfer's DLPack export never copies")
        if stream != -1:
            consumer = 1 if stream is None else int(stream)  # None: the legacy default
            for core in self._order.writers:
                if core.closed_at is None:
                    event = core.backend.record(core.raw)  # the writer's own device
                    self._backend.wait_event_handle(consumer, event)
                    core.backend.release_event(event)
        import importlib

        smv: Any = importlib.import_module("cuda.core.utils").StridedMemoryView
        view = smv.from_cuda_array_interface(_Interface(interface), stream_ptr=-1)
        return view.__dlpack__(stream=-1, max_version=max_version, dl_device=dl_device)

    def __dlpack_device__(self) -> tuple[int, int]:
        """(kDLCUDA, device ordinal)."""
        return (2, self._backend.device_ordinal())

    @property
    def __cuda_array_interface__(self) -> dict[str, Any]:
        """CUDA Array Interface (version 3), for CuPy, PyTorch, numba and others.

        Lent handles only (``with dev.lend() as view: torch.as_tensor(view, ...)``): a
        consumer may read, not write. ``stream`` is the stream of the last write, so the
        consumer orders its reads after it on the device. Its reads must be done (or
        ordered) before the lend block ends: numbaxfer cannot see foreign streams.
        """
        if not self._flag.read_only:
            raise BorrowError(
                f"{self.label} exposes __cuda_array_interface__ only through a lent handle, "
                "so that consumers can read but not write it: `with dev.lend() as view:` "
                "and pass `view`."
            )
        self._flag.check_read("__cuda_array_interface__")
        interface = dict(self._backend.array_interface(self._buf))
        writers = list(self._order.writers)
        stream: int | None = None
        if len(writers) > 1:  # joined from parts written on several streams: one to wait on
            first = next((w for w in writers if w.closed_at is None), None)
            if first is not None:
                for other in writers:
                    if other is not first:
                        first.wait_for(other)
                writers = [first]
        if writers:
            writer = writers[0]
            if writer.closed_at is None:
                stream = self._backend.stream_handle(writer.raw)
            elif not all(self._backend.query(w.tail) for w in writers if w.closed_at):
                raise OwnershipError(
                    f"{self.label} was last written on {writer.label}, closed at "
                    f"{where(writer.closed_at)} with that work still running; a consumer "
                    "has no stream to wait on. Close the writer stream after its work is done."
                )
        interface["version"] = 3
        interface["stream"] = stream
        interface["data"] = (interface["data"][0], True)  # read-only: a lent view
        return interface


@overload
def device_array(
    shape: int | tuple[int, ...],
    dtype: type[DT],
    *,
    order: Literal["C", "F"] = ...,
    device: int | None = ...,
) -> DeviceArray[Owned, DT]: ...
@overload
def device_array(
    shape: int | tuple[int, ...],
    dtype: np.dtype[DT],
    *,
    order: Literal["C", "F"] = ...,
    device: int | None = ...,
) -> DeviceArray[Owned, DT]: ...
@overload
def device_array(
    shape: int | tuple[int, ...],
    dtype: DTypeLike = ...,
    *,
    order: Literal["C", "F"] = ...,
    device: int | None = ...,
) -> DeviceArray[Owned, Any]: ...
def device_array(
    shape: int | tuple[int, ...],
    dtype: DTypeLike = np.float64,
    *,
    order: Literal["C", "F"] = "C",
    device: int | None = None,
) -> Any:
    """Allocate a device array (contents undefined), owned by the caller. Shapes have
    at least one element; dtypes are plain numbers or bool; ``order`` is the memory
    order ("C", or "F" for Fortran: copies need the same order at both ends).
    ``device``: the GPU's ordinal (None: the current device); ``.device`` says it."""
    site = caller_site()
    dims = normalise_shape(shape, "nx.device_array()")
    dt = check_dtype(dtype, "nx.device_array()")
    if order not in ("C", "F"):
        raise ValueError(f"nx.device_array(): order is 'C' or 'F', not {order!r}")
    backend = on_device(device, "nx.device_array()", site)
    buf = backend.alloc_device(dims, dt, order)
    dev = DeviceArray._adopt(backend, buf, dims, dt, label("DeviceArray", dims, dt))
    dev._made_at = site
    dev._layout = "F" if order == "F" and len(dims) > 1 and sum(d > 1 for d in dims) > 1 else "C"
    return dev


class _Interface:
    """A plain holder of a ``__cuda_array_interface__`` dict (for cuda.core's view)."""

    __slots__ = ("__cuda_array_interface__",)

    def __init__(self, interface: dict[str, Any]) -> None:
        desc = dict(interface)
        desc["stream"] = None  # ordered already (the consumer's stream waits)
        self.__cuda_array_interface__ = desc
