"""``Transfer[T]``: an enqueued copy that holds the host buffer it moved."""

from __future__ import annotations

import itertools
import threading
import warnings
from collections.abc import Generator
from typing import Any, Final, Generic, TypeVar

from numpy.typing import NDArray

from ._backend import Backend
from ._errors import UseAfterTransferError, where
from ._host import PinnedArray
from ._lifetime import InPlacePin, has_orphans, keep_alive, reap_orphans
from ._order import StreamCore
from ._ownership import MoveRecord, caller_site
from ._util import describe_transfer

__all__ = ["Transfer"]

T = TypeVar("T", covariant=True)
_numbers = itertools.count(1)
_LOCK: Final = threading.Lock()

_PENDING: Final = 0
_COMPLETING: Final = 1
_COMPLETED: Final = 2


class Transfer(Generic[T]):  # mypy_plugin.TRANSFER / TRANSFER_WAIT key on these names
    """An asynchronous copy in flight, holding what it moved.

    ``wait()`` blocks on this transfer's own event (not the stream, not the device)
    and returns the moved host array as a new owned handle: rebind your name,
    ``host = up.wait()``. ``done()`` polls without blocking. A transfer is completed
    exactly once; a second ``wait()`` raises. Dropping a transfer without completing
    it issues a ResourceWarning and keeps the host memory alive, unreachable, until
    the copy has really finished.
    """

    __slots__ = (
        "__weakref__",
        "_backend",
        "_buf",
        "_core",
        "_event",
        "_host",
        "_kind",
        "_mem",
        "_move",
        "_number",
        "_scope",
        "_state",
        "_waited_at",
    )

    _backend: Backend
    _core: StreamCore
    _event: Any
    _buf: NDArray[Any] | None
    _mem: Any
    _host: str  # the moved array's name, or for a device copy what it copies
    _kind: str
    _number: int
    _scope: InPlacePin | None  # the nx.pinned() pinning of the moved array, if any
    _move: MoveRecord | None
    _state: int
    _waited_at: tuple[str, int] | None

    def __init__(self) -> None:
        raise TypeError("Transfers are made by Stream.upload/download/copy.")

    @classmethod
    def _start(
        cls,
        core: StreamCore,
        kind: str,
        host: PinnedArray[Any, Any] | None,
        event: Any,
        move: MoveRecord | None,
        what: str = "",
    ) -> Transfer[Any]:
        """A started transfer. ``host`` (already moved, or None for a device copy) is
        what ``wait()`` hands back; it is registered as pending on the stream."""
        self = object.__new__(cls)
        self._backend = core.backend
        self._core = core
        self._event = event
        self._move = move
        self._state = _PENDING
        self._waited_at = None
        self._kind = kind
        number = self._number = next(_numbers)
        if host is not None:
            self._buf, self._mem = host._buf, host._mem
            self._host = host._flag.name
            core.pending[number] = (kind, self._host)
            scope = self._scope = host._scope
            if scope is not None:
                scope.inflight[number] = (
                    event,
                    describe_transfer(kind, number, self._host, core.label),
                )
        else:
            self._buf = self._mem = self._scope = None
            self._host = what
        if move is not None:
            move.transfer = f"{kind}#{number}"
        if has_orphans():
            reap_orphans()
        return self

    @property
    def label(self) -> str:
        """This transfer's name in messages: ``upload#3 of PinnedArray#1[...] on Stream#2``."""
        return describe_transfer(self._kind, self._number, self._host, self._core.label)

    def __repr__(self) -> str:
        state = ("pending", "completing", "completed")[self._state]
        return f"<Transfer {self.label}: {state}>"

    @property
    def completed(self) -> bool:
        """True once ``wait()`` has returned (ownership given back)."""
        return self._state == _COMPLETED

    def done(self) -> bool:
        """True once the copy has finished, so that ``wait()`` will not block.

        Polls the transfer's event; does not complete the transfer or return ownership.
        """
        if self._state == _COMPLETED:
            return True
        return self._backend.query(self._event)

    def wait(self) -> T:
        """Block until this copy has finished; return the moved host array (owned).

        Synchronizes this transfer's event only. For a device-to-device copy, which
        moves nothing, returns None.
        """
        site = caller_site()
        _LOCK.acquire()
        try:
            if self._state != _PENDING:
                raise UseAfterTransferError(
                    f"cannot wait() on {self.label}: it was already completed at "
                    f"{where(self._waited_at)}; its array was returned then. A transfer is "
                    "completed exactly once: use the handle that first wait() returned."
                )
            self._state = _COMPLETING
        finally:
            _LOCK.release()
        self._waited_at = site
        try:
            self._backend.sync_event(self._event)
        except BaseException:
            self._state = _PENDING  # nothing given back: it can be waited again
            raise
        self._backend.release_event(self._event)
        result: Any = None
        if self._buf is not None:
            self._core.pending.pop(self._number, None)
            if self._move is not None:
                self._move.returned_at = site
            result = PinnedArray._adopt(self._backend, self._buf, self._host, None, self._mem)
            scope = self._scope
            if scope is not None:
                scope.give_back(self._number, result)
            self._buf = self._mem = None
        self._state = _COMPLETED
        return result  # type: ignore[no-any-return]

    def __await__(self) -> Generator[Any, None, T]:
        """``host = await transfer``: completes it without blocking the event loop.

        On a GPU the event is waited for in a worker thread (the driver call releases
        the GIL), not polled; on the simulator and the emulator it completes inline.
        """
        return self._wait_async().__await__()

    async def _wait_async(self) -> T:
        if not self._backend.simulated and self._state == _PENDING:
            import asyncio

            await asyncio.to_thread(self._backend.sync_event, self._event)
        return self.wait()

    def __del__(self) -> None:
        try:
            state = self._state
        except AttributeError:
            return
        if state == _COMPLETED or self._buf is None:
            return
        keep: Any = self._buf
        if self._scope is not None:  # keep the memory pinned, too, until the copy is done
            keep = (self._buf, self._scope.pin)
            self._scope.inflight.pop(self._number, None)
        keep_alive(self._backend, self._event, keep)
        self._core.pending.pop(self._number, None)
        warnings.warn(
            f"{self.label} was garbage-collected without being completed. Its host memory "
            "is kept alive, unusable, until the copy finishes; call wait() (or poll done()) "
            "and rebind the array it returns.",
            ResourceWarning,
            stacklevel=2,
        )
