"""Mapped (zero-copy) host arrays: host memory that kernels read and write directly.

A kernel that uses mapped memory touches it while it runs, exactly like a copy does,
so the same rule applies: ``stream.map(m)`` MOVES the host handle into a
:class:`Mapping` whose ``device`` array kernels may use (on any stream, ordered like
any device array); ``mapping.wait()`` waits for the work that used it (events on
exactly the streams that did) and gives the host handle back.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar, overload

import numpy as np
from numpy.typing import DTypeLike, NDArray

from ._backend import get_backend
from ._device import DeviceArray
from ._errors import UseAfterTransferError, where
from ._host import PinnedArray
from ._order import fence_events
from ._ownership import Lent, MoveRecord, Owned, caller_site
from ._util import label, normalise_shape

__all__ = ["MappedArray", "Mapping", "mapped_array"]

Cap = TypeVar("Cap", bound=Lent, covariant=True)
DT = TypeVar("DT", bound=np.generic)


class MappedArray(PinnedArray[Cap, DT]):
    """A pinned host array that is also mapped into the device's address space.

    Everything a :class:`PinnedArray` is (read, write, lend, upload, download), plus
    ``stream.map(m)`` to hand it to kernels directly, without a copy.
    """

    __slots__ = ("_device_buf",)
    _device_buf: Any


class Mapping(Generic[DT]):
    """A mapped array lent to the device. ``device`` is a ``DeviceArray[Owned, DT]``
    over the same memory for kernel launches; ``wait()`` returns the host handle once
    every kernel that used it has finished."""

    __slots__ = ("_backend", "_completed_at", "_host", "_move", "device")

    def __init__(self, host: MappedArray[Any, DT], move: MoveRecord) -> None:
        self._backend = host._backend
        self._host = host
        self._move = move
        self._completed_at: tuple[str, int] | None = None
        label = f"{host._flag.name} (mapped into the device at {where(move.site)})"
        self.device: DeviceArray[Owned, DT] = DeviceArray._adopt(
            host._backend, host._device_buf, host.shape, host.dtype, label
        )

    def _events(self) -> list[Any]:
        return fence_events(self.device._order)

    def done(self) -> bool:
        """True once every kernel that used the mapping has finished (never blocks)."""
        return self._completed_at is not None or all(self._backend.query(e) for e in self._events())

    def racy_peek(self) -> NDArray[DT]:
        """A read-only view of the live memory while kernels may still write it.

        RACY BY DESIGN: for progress counters a running kernel updates; the values may
        be stale or torn. Never use it for results: take those from ``wait()``.
        """
        view: NDArray[DT] = self._host._buf.view()
        view.setflags(write=False)
        return view

    def wait(self) -> MappedArray[Owned, DT]:
        """Wait for the kernels that used ``device`` (their streams' events, nothing
        else); return the host array, owned again. ``device`` may not be used after."""
        site = caller_site()
        if self._completed_at is not None:
            raise UseAfterTransferError(
                f"cannot wait() on the mapping of {self._host._flag.name}: it was already "
                f"completed at {where(self._completed_at)}; use the array returned then."
            )
        for event in self._events():
            self._backend.sync_event(event)
        self.device._flag.move(MoveRecord("the end of its mapping", "", site))
        self._completed_at = self._move.returned_at = site
        host: MappedArray[Owned, DT] = MappedArray._adopt(  # type: ignore[assignment]
            self._backend, self._host._buf, self._host._flag.name, None, self._host._mem
        )
        host._device_buf = self._host._device_buf
        return host


@overload
def mapped_array(shape: int | tuple[int, ...], dtype: type[DT]) -> MappedArray[Owned, DT]: ...
@overload
def mapped_array(shape: int | tuple[int, ...], dtype: np.dtype[DT]) -> MappedArray[Owned, DT]: ...
@overload
def mapped_array(
    shape: int | tuple[int, ...], dtype: DTypeLike = ...
) -> MappedArray[Owned, Any]: ...
def mapped_array(shape: int | tuple[int, ...], dtype: DTypeLike = np.float64) -> Any:
    """Allocate a mapped (zero-copy) host array, owned by the caller."""
    backend = get_backend()
    dims = normalise_shape(shape)
    host, device = backend.alloc_mapped(dims, np.dtype(dtype))
    arr: Any = MappedArray._adopt(backend, host, label("MappedArray", dims, host.dtype), None)
    arr._device_buf = device
    return arr
