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

import sys
from types import TracebackType
from typing import Generic, TypeVar

import numpy as np
from numpy.typing import NDArray

from ._backend import get_backend
from ._errors import UnfinishedTransferError, where
from ._host import PinnedArray
from ._lifetime import InPlacePin, keep_alive
from ._ownership import Owned, caller_site

__all__ = ["PinnedScope", "pinned"]

DT = TypeVar("DT", bound=np.generic)


class PinnedScope(Generic[DT]):
    """The with-block of :func:`pinned`. Enter it once."""

    __slots__ = ("_array", "_backend", "_pin", "_site")

    def __init__(self, array: NDArray[DT]) -> None:
        if not isinstance(array, np.ndarray):
            raise TypeError(f"nx.pinned() takes a numpy array, not {type(array).__name__}")
        if not array.flags.c_contiguous or not array.flags.writeable:
            raise ValueError(
                "nx.pinned() needs a C-contiguous, writeable numpy array (got "
                f"{'non-contiguous' if not array.flags.c_contiguous else 'read-only'}); "
                "use np.ascontiguousarray(a) first, or nx.pinned_copy(a)."
            )
        self._array = array
        self._backend = get_backend()
        self._site = caller_site()
        self._pin = InPlacePin(self._site)

    def __enter__(self) -> PinnedArray[Owned, DT]:
        pin = self._pin
        if pin.pin is not None or pin.closed:
            raise RuntimeError("an nx.pinned() scope can be entered only once")
        pin.pin = self._backend.pin(self._array)
        label = f"PinnedArray#scoped[{self._array.dtype}, {'x'.join(map(str, self._array.shape))}]"
        handle: PinnedArray[Owned, DT] = PinnedArray._adopt(
            self._backend, self._array, f"{label} (pinned in place at {where(self._site)})", None
        )
        handle._scope = pin
        pin.current = handle
        return handle

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        pin = self._pin
        pin.closed = True
        current = pin.current
        if current is not None and current._flag.is_usable:
            current._flag.expire()
        if not pin.inflight:
            pin.pin = None  # unpins now: no copy uses the memory
            return
        names = "; ".join(desc for _, desc in pin.inflight.values())
        for event, _ in pin.inflight.values():
            keep_alive(self._backend, event, (self._array, pin.pin))
        message = (
            f"nx.pinned() block opened at {where(self._site)} ended with {len(pin.inflight)} "
            f"unfinished transfer(s) still using its memory: {names}. The memory stays "
            "pinned and alive until they finish; complete them with wait() inside the block."
        )
        if ev is not None:
            if sys.version_info >= (3, 11):
                ev.add_note(f"numbaxfer: {message}")
            return
        raise UnfinishedTransferError(message)


def pinned(array: NDArray[DT]) -> PinnedScope[DT]:
    """``with nx.pinned(a) as h:`` page-locks numpy array ``a`` in place (no copy) and
    gives an owned ``PinnedArray`` over it for the block; see :class:`PinnedScope`.

    Inside the block, use the handle, not ``a``: writes through ``a`` escape both
    checkers (the known hole of aliases).
    """
    return PinnedScope(array)
