"""``nx.pinned(array)``: page-lock an existing numpy array in place for a with-block.

numba's ``with cuda.pinned(a):`` unpins ``a`` at block exit even while copies from it
are still queued. Here the block hands out an owned ``PinnedArray`` over ``a``'s memory
(no copy), tracks every transfer that takes it, and at exit:

* all transfers completed: the handle expires and the memory is unpinned;
* a transfer still unfinished: raises :class:`UnfinishedTransferError` naming it (or,
  if the block is already failing, adds that as a note to the exception), and keeps
  the memory pinned and alive until the copy has really finished.
"""

from __future__ import annotations

from itertools import pairwise
from types import TracebackType
from typing import Any, Final, Generic, TypeVar, final, overload

import numpy as np
from numpy.typing import NDArray

from ._backend import Backend, get_backend
from ._errors import BorrowError, UnfinishedTransferError, where
from ._host import PinnedArray, owned_by_numbaxfer
from ._lifetime import InPlacePin, keep_alive
from ._mapped import MappedArray
from ._ownership import STATE_LOCK, MoveRecord, Owned, Unique, caller_site
from ._util import check_dtype, label, normalise_shape

__all__ = ["PinnedScope", "mapped", "pinned"]

DT = TypeVar("DT", bound=np.generic)
_E = TypeVar("_E")


#: Memory pinned in place by open nx.pinned() blocks: id(pin) -> (start, end, site).
_pinned_ranges: Final[dict[int, tuple[int, int, tuple[str, int]]]] = {}


def _byte_range(array: NDArray[Any]) -> tuple[int, int]:
    start = int(array.__array_interface__["data"][0])
    return start, start + int(array.nbytes)


@final
class PinnedScope(Unique, Generic[_E]):
    """The with-block of :func:`pinned`: one array (the block gives its handle) or
    several (a tuple of handles, in order). Enter it once."""

    __slots__ = ("_arrays", "_backend", "_mapped", "_pins", "_single", "_site")

    _arrays: tuple[NDArray[Any], ...]
    _mapped: bool  # nx.mapped: also mapped into the device's address space
    _backend: Backend
    _pins: tuple[InPlacePin, ...]
    _single: bool
    _site: tuple[str, int]

    def __init__(self) -> None:
        raise TypeError("PinnedScope is not created directly: use `with nx.pinned(array) as h:`.")

    @classmethod
    def _create(
        cls, arrays: tuple[NDArray[Any], ...], site: tuple[str, int], mapped: bool = False
    ) -> PinnedScope[Any]:
        if not arrays:
            raise TypeError("nx.pinned() takes one or more numpy arrays")
        for array in arrays:
            _check_pinnable(array, site)
        spans = sorted((*_byte_range(a), i) for i, a in enumerate(arrays))
        for (_, end, i), (start, _, j) in pairwise(spans):
            if start < end:
                raise BorrowError(
                    f"nx.pinned() at {where(site)}: arrays {min(i, j)} and {max(i, j)} share "
                    "memory; one owner per memory: pin each memory once."
                )
        self = object.__new__(cls)
        self._arrays = arrays
        self._mapped = mapped
        self._single = len(arrays) == 1
        self._backend = get_backend()
        self._site = site
        self._pins = tuple(InPlacePin(site) for _ in arrays)
        return self

    def __enter__(self) -> _E:
        with STATE_LOCK:
            if any(p.pin is not None or p.closed for p in self._pins):
                raise RuntimeError("an nx.pinned() scope can be entered only once")
            ranges = [_byte_range(a) for a in self._arrays]
            for start, end in ranges:
                for other_start, other_end, other_site in _pinned_ranges.values():
                    if start < other_end and other_start < end:
                        raise BorrowError(
                            f"cannot pin an array of the nx.pinned() block at "
                            f"{where(self._site)}: its memory is already pinned in place by the "
                            f"open nx.pinned() block at {where(other_site)}. Use that block's "
                            "handle (one owner per memory), or pin after that block has ended."
                        )
            devices: list[Any] = []
            try:
                for pin, array in zip(self._pins, self._arrays, strict=True):
                    if self._mapped:
                        pin.pin, device = self._backend.map_in_place(array)
                        devices.append(device)
                    else:
                        pin.pin = self._backend.pin(array)
            except BaseException:
                for pin in self._pins:  # unpins the ones already pinned
                    pin.pin = None
                raise
            handles = []
            kind = "MappedArray" if self._mapped else "PinnedArray"
            how = "mapped" if self._mapped else "pinned"
            for i, (pin, array, (start, end)) in enumerate(
                zip(self._pins, self._arrays, ranges, strict=True)
            ):
                name = label(kind, array.shape, array.dtype)
                cls = MappedArray if self._mapped else PinnedArray
                handle: PinnedArray[Owned, Any] = cls._adopt(
                    self._backend, array, f"{name} ({how} in place at {where(self._site)})"
                )
                if self._mapped:
                    handle._device_buf = devices[i]  # type: ignore[attr-defined]
                handle._scope = pin
                pin.current = handle
                _pinned_ranges[id(pin)] = (start, end, self._site)
                handles.append(handle)
            return handles[0] if self._single else tuple(handles)  # type: ignore[return-value]

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        site = caller_site()
        unfinished: list[tuple[Any, str]] = []
        names: list[str] = []
        with STATE_LOCK:
            ended = MoveRecord("expire-pinned", "", site)
            for pin, array in zip(self._pins, self._arrays, strict=True):
                _pinned_ranges.pop(id(pin), None)
                pin.closed = True
                pin.ended = ended
                current = pin.current
                if current is not None and current._flag.is_usable:
                    current._flag.expire(ended)
                # Transfers still holding the memory: those alive are unfinished by
                # definition (they are completed by wait(), inside the block); those
                # dropped count while their copy has not finished.
                mine = [
                    n
                    for n in pin.inflight
                    if n not in pin.dropped or not self._backend.query(pin.inflight[n][0])
                ]
                for n in mine:
                    event, desc = pin.inflight[n]
                    keep_alive(self._backend, event, (array, pin.pin))
                    unfinished.append((event, desc))
                    names.append(desc + (" (dropped without wait())" if n in pin.dropped else ""))
                # Mappings of memory mapped in place: kernels may still use it.
                live = [m for m in (ref() for ref in pin.mappings.values()) if m is not None]
                busy = [e for e in pin.dropped_fences if not self._backend.query(e)]
                for m in live:
                    for event in m._fences():
                        keep_alive(self._backend, event, (array, pin.pin))
                    unfinished.append((None, f"the mapping made at {where(m._move.site)}"))
                    names.append(f"the mapping made at {where(m._move.site)} (not waited)")
                for event in busy:
                    keep_alive(self._backend, event, (array, pin.pin))
                if busy:
                    unfinished.append((None, "a dropped mapping"))
                    names.append("a mapping dropped without wait(), its kernels still running")
                if not (mine or live or busy):
                    pin.pin = None  # unpins now: no copy or kernel uses the memory
        if not unfinished:
            return
        message = (
            f"nx.pinned() block opened at {where(self._site)} ended with {len(unfinished)} "
            f"unfinished transfer(s) still using its memory: {'; '.join(names)}. The memory "
            "stays pinned and alive until they finish; complete them with wait() inside the "
            "block."
        )
        if ev is not None:
            ev.add_note(f"numbaxfer: {message}")
            return
        raise UnfinishedTransferError(message)


def _check_pinnable(array: object, site: tuple[str, int]) -> None:
    if not isinstance(array, np.ndarray):
        raise TypeError(f"nx.pinned() takes numpy arrays, not {type(array).__name__}")
    normalise_shape(array.shape, "nx.pinned()")
    check_dtype(array.dtype, "nx.pinned()")
    contiguous = array.flags.c_contiguous or array.flags.f_contiguous
    if not contiguous or not array.flags.writeable:
        raise ValueError(
            "nx.pinned() needs contiguous (C or Fortran order), writeable numpy arrays (got "
            f"{'non-contiguous' if not contiguous else 'read-only'}); "
            "use np.ascontiguousarray(a) first, or nx.pinned_copy(a)."
        )
    if owned_by_numbaxfer(array):
        raise BorrowError(
            f"nx.pinned() at {where(site)}: the array is memory of a numbaxfer pinned "
            "array (a view from its read() or write()); that array already owns it and is "
            "pinned. Use the PinnedArray itself."
        )


@overload
def pinned(array: NDArray[DT], /) -> PinnedScope[PinnedArray[Owned, DT]]: ...
@overload
def pinned(
    first: NDArray[Any], second: NDArray[Any], /, *more: NDArray[Any]
) -> PinnedScope[tuple[PinnedArray[Owned, Any], ...]]: ...
def pinned(*arrays: NDArray[Any]) -> PinnedScope[Any]:
    """``with nx.pinned(a) as h:`` page-locks numpy array ``a`` in place (no copy) and
    gives an owned ``PinnedArray`` over it for the block; ``with nx.pinned(a, b) as
    (ha, hb):`` does the same for several arrays. See :class:`PinnedScope`.

    Inside the block, use the handles, not the arrays: writes through ``a`` escape both
    checkers (the known hole of aliases). One block at a time may pin a given memory.
    """
    return PinnedScope._create(arrays, caller_site())


@overload
def mapped(array: NDArray[DT], /) -> PinnedScope[MappedArray[Owned, DT]]: ...
@overload
def mapped(
    first: NDArray[Any], second: NDArray[Any], /, *more: NDArray[Any]
) -> PinnedScope[tuple[MappedArray[Owned, Any], ...]]: ...
def mapped(*arrays: NDArray[Any]) -> PinnedScope[Any]:
    """``with nx.mapped(a) as m:`` page-locks numpy array ``a`` in place and maps it into
    the device's address space (numba's ``cuda.mapped``, no copy): ``m`` is an owned
    ``MappedArray``; hand it to kernels with ``mapping = stream.map(m)`` and take it back
    with ``m = mapping.wait()`` inside the block. Ending the block while a mapping (or a
    transfer) is unfinished raises :class:`UnfinishedTransferError` and keeps the memory
    pinned and mapped until the work is done. Several arrays give a tuple of handles.
    """
    return PinnedScope._create(arrays, caller_site(), mapped=True)
