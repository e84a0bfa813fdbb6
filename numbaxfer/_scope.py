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

from types import TracebackType
from typing import Any, Final, Generic, TypeVar, final

import numpy as np
from numpy.typing import NDArray

from ._backend import Backend, get_backend
from ._errors import BorrowError, UnfinishedTransferError, where
from ._host import PinnedArray, owned_by_numbaxfer
from ._lifetime import InPlacePin, keep_alive
from ._ownership import STATE_LOCK, MoveRecord, Owned, Unique, caller_site
from ._util import check_dtype, label, normalise_shape

__all__ = ["PinnedScope", "pinned"]

DT = TypeVar("DT", bound=np.generic)


#: Memory pinned in place by open nx.pinned() blocks: id(pin) -> (start, end, site).
_pinned_ranges: Final[dict[int, tuple[int, int, tuple[str, int]]]] = {}


def _byte_range(array: NDArray[Any]) -> tuple[int, int]:
    start = int(array.__array_interface__["data"][0])
    return start, start + int(array.nbytes)


@final
class PinnedScope(Unique, Generic[DT]):
    """The with-block of :func:`pinned`. Enter it once."""

    __slots__ = ("_array", "_backend", "_pin", "_site")

    _array: NDArray[DT]
    _backend: Backend
    _pin: InPlacePin
    _site: tuple[str, int]

    def __init__(self) -> None:
        raise TypeError("PinnedScope is not created directly: use `with nx.pinned(array) as h:`.")

    @classmethod
    def _create(cls, array: NDArray[DT], site: tuple[str, int]) -> PinnedScope[DT]:
        if not isinstance(array, np.ndarray):
            raise TypeError(f"nx.pinned() takes a numpy array, not {type(array).__name__}")
        normalise_shape(array.shape, "nx.pinned()")
        check_dtype(array.dtype, "nx.pinned()")
        if not array.flags.c_contiguous or not array.flags.writeable:
            raise ValueError(
                "nx.pinned() needs a C-contiguous, writeable numpy array (got "
                f"{'non-contiguous' if not array.flags.c_contiguous else 'read-only'}); "
                "use np.ascontiguousarray(a) first, or nx.pinned_copy(a)."
            )
        if owned_by_numbaxfer(array):
            raise BorrowError(
                f"nx.pinned() at {where(site)}: the array is memory of a numbaxfer pinned "
                "array (a view from its read() or write()); that array already owns it and is "
                "pinned. Use the PinnedArray itself."
            )
        self = object.__new__(cls)
        self._array = array
        self._backend = get_backend()
        self._site = site
        self._pin = InPlacePin(site)
        return self

    def __enter__(self) -> PinnedArray[Owned, DT]:
        with STATE_LOCK:
            pin = self._pin
            if pin.pin is not None or pin.closed:
                raise RuntimeError("an nx.pinned() scope can be entered only once")
            start, end = _byte_range(self._array)
            for other_start, other_end, other_site in _pinned_ranges.values():
                if start < other_end and other_start < end:
                    raise BorrowError(
                        f"cannot pin the array of the nx.pinned() block at {where(self._site)}: "
                        f"its memory is already pinned in place by the open nx.pinned() block "
                        f"at {where(other_site)}. Use that block's handle (one owner per "
                        "memory), or pin after that block has ended."
                    )
            pin.pin = self._backend.pin(self._array)
            name = label("PinnedArray", self._array.shape, self._array.dtype)
            handle: PinnedArray[Owned, DT] = PinnedArray._adopt(
                self._backend, self._array, f"{name} (pinned in place at {where(self._site)})"
            )
            handle._scope = pin
            pin.current = handle
            _pinned_ranges[id(pin)] = (start, end, self._site)
            return handle

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        site = caller_site()
        with STATE_LOCK:
            pin = self._pin
            _pinned_ranges.pop(id(pin), None)
            pin.closed = True
            pin.ended = MoveRecord("expire-pinned", "", site)
            current = pin.current
            if current is not None and current._flag.is_usable:
                current._flag.expire(pin.ended)
            # Transfers still holding the memory: those alive are unfinished by
            # definition (they are completed by wait(), inside the block); those dropped
            # count while their copy has not finished.
            live = [n for n in pin.inflight if n not in pin.dropped]
            dropped = [
                n
                for n in pin.inflight
                if n in pin.dropped and not self._backend.query(pin.inflight[n][0])
            ]
            unfinished = [pin.inflight[n] for n in live + dropped]
            if not unfinished:
                pin.pin = None  # unpins now: no copy uses the memory
                return
            names = "; ".join(
                desc + (" (dropped without wait())" if n in pin.dropped else "")
                for n, (_, desc) in zip(live + dropped, unfinished, strict=True)
            )
            for event, _ in unfinished:
                keep_alive(self._backend, event, (self._array, pin.pin))
        message = (
            f"nx.pinned() block opened at {where(self._site)} ended with {len(unfinished)} "
            f"unfinished transfer(s) still using its memory: {names}. The memory stays "
            "pinned and alive until they finish; complete them with wait() inside the block."
        )
        if ev is not None:
            ev.add_note(f"numbaxfer: {message}")
            return
        raise UnfinishedTransferError(message)


def pinned(array: NDArray[DT]) -> PinnedScope[DT]:
    """``with nx.pinned(a) as h:`` page-locks numpy array ``a`` in place (no copy) and
    gives an owned ``PinnedArray`` over it for the block; see :class:`PinnedScope`.

    Inside the block, use the handle, not ``a``: writes through ``a`` escape both
    checkers (the known hole of aliases). One block at a time may pin a given memory.
    """
    return PinnedScope._create(array, caller_site())
