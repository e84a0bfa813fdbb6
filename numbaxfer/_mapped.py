"""Mapped (zero-copy) host arrays: host memory that kernels read and write directly.

A kernel that uses mapped memory touches it while it runs, exactly like a copy does,
so the same rule applies: ``stream.map(m)`` MOVES the host handle into a
:class:`Mapping` whose ``device`` array kernels may use (on any stream, ordered like
any device array); ``mapping.wait()`` waits for the work that used it (events on
exactly the streams that did) and gives the host handle back.
"""

from __future__ import annotations

import warnings
import weakref
from typing import Any, Generic, TypeVar, final, overload

import numpy as np
from numpy.typing import DTypeLike, NDArray

from ._backend import Backend, get_backend
from ._device import DeviceArray
from ._errors import UseAfterTransferError, where
from ._guard import Protection, guard_enabled, lifted, protect
from ._host import PinnedArray, read_only_view, remember_pinned
from ._lifetime import keep_alive
from ._order import DeviceOrder
from ._ownership import STATE_LOCK, Lent, MoveRecord, Owned, Unique, caller_site
from ._util import check_dtype, label, normalise_shape

__all__ = ["MappedArray", "Mapping", "mapped_array"]

Cap = TypeVar("Cap", bound=Lent, covariant=True)
DT = TypeVar("DT", bound=np.generic)


@final
class MappedArray(PinnedArray[Cap, DT]):
    """A pinned host array that is also mapped into the device's address space.

    Everything a :class:`PinnedArray` is (read, write, lend, upload, download: it comes
    back from a transfer as a MappedArray), plus ``stream.map(m)`` to hand it to kernels
    directly, without a copy.
    """

    __slots__ = ("_device_buf",)
    _device_buf: Any

    def _copy_extras(self, new: PinnedArray[Any, Any]) -> None:
        new._device_buf = self._device_buf  # type: ignore[attr-defined]


@final
class Mapping(Unique, Generic[DT]):
    """A mapped array lent to the device. ``device`` is a ``DeviceArray[Owned, DT]``
    over the same memory for kernel launches (it may not be freed: the mapping ends
    it); ``wait()`` returns the host handle once every kernel that used it has
    finished. Made by ``Stream.map``; complete it exactly once, like a transfer."""

    __slots__ = (
        "__weakref__",
        "_backend",
        "_completed_at",
        "_guard",
        "_host",
        "_move",
        "device",
    )

    _backend: Backend
    _host: MappedArray[Any, DT]
    _move: MoveRecord
    _completed_at: tuple[str, int] | None
    _guard: Protection | None  # guard mode: the memory is no-access under kernels
    device: DeviceArray[Owned, DT]

    def __init__(self) -> None:
        raise TypeError("Mapping is not created directly: use stream.map(mapped_array).")

    @classmethod
    def _create(cls, host: MappedArray[Any, DT], move: MoveRecord) -> Mapping[DT]:
        """The mapping of ``host``, already moved into it."""
        self = object.__new__(cls)
        self._backend = host._backend
        self._host = host
        self._move = move
        self._completed_at = None
        self._guard = None
        name = f"{host._flag.name} (mapped into the device at {where(move.site)})"
        device: DeviceArray[Owned, DT] = DeviceArray._adopt(
            host._backend, host._device_buf, host.shape, host.dtype, name
        )
        device._order = DeviceOrder(name, fenced=True)
        device._held_by = f"the device view of a mapping made at {where(move.site)}"
        self.device = device
        if host._scope is not None:  # memory mapped in place: its block must see this
            host._scope.mappings[id(self)] = weakref.ref(self)
        self._guard = protect(host._buf, True, f"the mapping of {host._flag.name}")
        return self

    def _fences(self) -> list[Any]:
        fences = self.device._order.fences
        assert fences is not None
        return list(fences.values())

    def done(self) -> bool:
        """True once every kernel that used the mapping has finished (never blocks)."""
        if self._completed_at is not None:
            return True
        return all(self._backend.query(e) for e in self._fences())

    def racy_peek(self) -> NDArray[DT]:
        """A read-only view of the live memory while kernels may still write it.

        RACY BY DESIGN: for progress counters a running kernel updates; the values may
        be stale or torn. Never use it for results: take those from ``wait()``. The
        view cannot be made writable. In guard mode (the memory is protected) it is a
        read-only snapshot copied with the protection lifted for the copy.
        """
        if guard_enabled() or self._guard is not None:
            snap: NDArray[DT] = lifted((self._host._buf,), self._host._buf.copy)
            return read_only_view(snap)  # cannot be made writable, like the live view
        view: NDArray[DT] = self._host._ro.view()
        return view

    def wait(self) -> MappedArray[Owned, DT]:
        """Wait for the work that used ``device`` (an event recorded after its last use
        on each stream that used it, nothing else); return the host array, owned again.
        ``device`` may not be used after. Interrupted, it may be called again."""
        site = caller_site()
        with STATE_LOCK:
            if self._completed_at is not None:
                raise UseAfterTransferError(
                    f"cannot wait() on the mapping of {self._host._flag.name}: it was already "
                    f"completed at {where(self._completed_at)}; use the array returned then."
                )
            fences = self._fences()
        for event in fences:
            self._backend.sync_event(event)
        guard, self._guard = self._guard, None
        if guard is not None:  # the kernels are done: the memory may be touched again
            guard.release()
        order_fences = self.device._order.fences
        assert order_fences is not None
        with STATE_LOCK:
            if self._completed_at is not None:  # another thread completed it meanwhile
                raise UseAfterTransferError(
                    f"cannot wait() on the mapping of {self._host._flag.name}: it was "
                    f"completed at {where(self._completed_at)} by another wait()."
                )
            while order_fences:  # done with: back to the pool, each once
                _, event = order_fences.popitem()
                self._backend.release_event(event)
            host: MappedArray[Owned, DT] = self._host._reborn()  # type: ignore[assignment]
        try:
            with STATE_LOCK:
                self.device._flag.retire(MoveRecord("mapping-end", "", site))
                self._move.returned_at = site
                self._completed_at = site
                if host._scope is not None:
                    host._scope.mapping_done(id(self), host)
            return host
        except BaseException:  # interrupted before the caller got it: not completed
            with STATE_LOCK:
                self.device._flag.unmove()
                self._move.returned_at = self._completed_at = None
            raise

    def __del__(self) -> None:
        try:
            completed, host = self._completed_at, self._host
            fences = self._fences()
        except AttributeError:
            return
        if completed is not None:
            return
        keep: Any = (host._buf, host._mem, host._device_buf, self._guard)
        if not fences and self._guard is not None:
            self._guard.release()  # no kernel used it: nothing to guard
        if host._scope is not None:  # keep the memory pinned too; the block's exit sees it
            keep = (keep, host._scope.pin)
            host._scope.mappings.pop(id(self), None)
            host._scope.dropped_fences.extend(fences)
        for event in fences:
            keep_alive(self._backend, event, keep)
        warnings.warn(
            f"the mapping of {host._flag.name} (made at {where(self._move.site)}) was "
            "garbage-collected without wait(). Its memory is kept alive, unusable, until the "
            "kernels that used it finish; call mapping.wait() and rebind the array it returns.",
            ResourceWarning,
            stacklevel=2,
        )


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
    dims = normalise_shape(shape, "nx.mapped_array()")
    dt = check_dtype(dtype, "nx.mapped_array()")
    backend = get_backend()
    host, device = backend.alloc_mapped(dims, dt)
    remember_pinned(host)
    arr: Any = MappedArray._adopt(backend, host, label("MappedArray", dims, host.dtype))
    arr._device_buf = device
    return arr
