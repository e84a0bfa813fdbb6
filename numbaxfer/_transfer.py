"""``Transfer[T]``: an enqueued copy that holds the host buffer it moved."""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Generator
from typing import Any, Final, Generic, TypeVar, final

from ._backend import Backend
from ._errors import UseAfterTransferError, where
from ._guard import Protection, guard_enabled, protect
from ._host import PinnedArray
from ._lifetime import has_orphans, keep_alive, reap_orphans
from ._order import CaptureState, StreamCore
from ._ownership import STATE_LOCK, MoveRecord, Unique, caller_site
from ._util import describe_transfer

__all__ = ["Transfer"]

T = TypeVar("T", covariant=True)
_numbers = itertools.count(1)

_PENDING: Final = 0
_COMPLETING: Final = 1
_COMPLETED: Final = 2


#: Transfer kind -> the route of a device-to-device copy (``Transfer.route``).
_ROUTES: Final = {"copy": "local", "peer copy": "peer", "staged copy": "staged"}


@final
class Transfer(Unique, Generic[T]):  # mypy_plugin.TRANSFER / TRANSFER_WAIT key on these names
    """An asynchronous copy in flight, holding what it moved.

    ``wait()`` blocks on this transfer's own event (not the stream, not the device)
    and returns the moved host array as a new owned handle: rebind your name,
    ``host = up.wait()``. ``done()`` polls without blocking. A transfer is completed
    exactly once; a second ``wait()`` raises. If ``wait()`` is interrupted (an
    exception or KeyboardInterrupt at any point) the transfer is still pending and
    ``wait()`` may be called again. Dropping a transfer without completing it issues a
    ResourceWarning and keeps the host memory alive, unreachable, until the copy has
    really finished. Transfers refuse ``copy``/``pickle`` (a copy would complete twice).
    """

    __slots__ = (
        "__weakref__",
        "_after",
        "_backend",
        "_capture",
        "_core",
        "_event",
        "_guard",
        "_handle",
        "_host",
        "_kind",
        "_move",
        "_number",
        "_released",
        "_state",
        "_synced",
        "_waited_at",
    )

    _backend: Backend
    _capture: CaptureState | None  # the capture this transfer was recorded in
    _core: StreamCore
    _event: Any
    _guard: Protection | None  # guard mode: the protection of the moved memory
    _handle: PinnedArray[Any, Any] | None  # the moved handle (retired); None once returned
    _host: str  # the moved array's name, or for a device copy what it copies
    _kind: str
    _number: int
    _move: MoveRecord | None
    _state: int
    _synced: bool  # the event has completed (wait() got past its sync)
    _released: bool  # the event went back to the backend's pool
    _after: list[Any]  # events of transfers chained before this one, released with it
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
        what ``wait()`` hands back; it is registered as pending on the stream. The
        registrations come last, with no call between them."""
        self = object.__new__(cls)
        self._backend = core.backend
        self._core = core
        self._event = event
        self._move = move
        self._state = _PENDING
        self._synced = self._released = False
        self._after = []
        self._waited_at = None
        self._kind = kind
        self._handle = host
        self._guard = None
        number = self._number = next(_numbers)
        self._host = what if host is None else host._flag.name
        capture = self._capture = core.capture
        if has_orphans():
            reap_orphans()
        if host is None:
            return self
        if capture is not None:  # the host memory becomes a parameter of the graph
            root = host
            while root._part is not None:
                root = root._part[0].parent
            capture.params.setdefault(id(root._buf), (number, root))
        scope = host._scope
        if scope is not None:  # made before the registrations: no call between them
            # A captured event is never queried: an nx.pinned() block that must wait for
            # a captured transfer waits for the stream's real work before the capture.
            fence = event if capture is None else capture.before[core]
            if capture is not None:
                capture.kept.add(core)
            entry = (fence, describe_transfer(kind, number, self._host, core.label))
        if move is not None:
            move.transfer = f"{kind}#{number}"
        core.pending[number] = (kind, self._host)
        if scope is not None:
            scope.inflight[number] = entry
        # Guard mode: lock the CPU out of the memory (an upload may still read it).
        if guard_enabled():
            self._guard = protect(host._buf, kind != "upload", self.label)
        return self

    def _abandon(self) -> None:
        """Undo ``_start`` (an interrupt before the transfer reached anyone): unregister
        it and make it inert; the caller gives the moved handle back."""
        handle = self._handle
        self._core.pending.pop(self._number, None)
        if handle is not None and handle._scope is not None:
            handle._scope.inflight.pop(self._number, None)
        self._handle = None
        self._state = _COMPLETED
        self._lift()

    def _lift(self) -> None:
        """Guard mode: end the protection of the moved memory (its copy is over)."""
        guard, self._guard = self._guard, None
        if guard is not None:
            guard.release()

    @property
    def label(self) -> str:
        """This transfer's name in messages: ``upload#3 of PinnedArray#1[...] on Stream#2``."""
        return describe_transfer(self._kind, self._number, self._host, self._core.label)

    def __repr__(self) -> str:
        state = ("pending", "completing", "completed")[self._state]
        return f"<Transfer {self.label}: {state}>"

    @property
    def route(self) -> str | None:
        """How a device-to-device ``copy()`` runs: ``"local"`` (both arrays on one
        device), ``"peer"`` (between two GPUs through peer access) or ``"staged"``
        (between two GPUs without peer access: device to pinned host memory to device,
        on the same stream). None for uploads, downloads and the other transfers."""
        return _ROUTES.get(self._kind)

    @property
    def completed(self) -> bool:
        """True once ``wait()`` has returned (ownership given back)."""
        return self._state == _COMPLETED

    def done(self) -> bool:
        """True once the copy has finished, so that ``wait()`` will not block.

        Polls the transfer's event; does not complete the transfer or return ownership.
        """
        if self._state == _COMPLETED or self._synced:
            return True
        if self._capture is not None:
            self._check_capture("done()", caller_site())
            return True  # captured: nothing runs, it is complete once the capture ends
        return self._backend.query(self._event)

    def wait(self) -> T:
        """Block until this copy has finished; return the moved host array (owned).

        Synchronizes this transfer's event only. For a device-to-device copy, which
        moves nothing, returns None.
        """
        site = caller_site()
        mine = False  # this call moved the transfer to COMPLETING
        handle = self._handle
        try:
            with STATE_LOCK:
                if self._state != _PENDING:
                    raise self._completed_error(site)
                if self._capture is not None:
                    self._check_capture("wait()", site)
                    self._synced = True  # nothing ran: a captured event is never synced
                self._state, mine = _COMPLETING, True
            if not self._synced:
                self._backend.sync_event(self._event)
                self._synced = True
            if not self._released:  # the event is done with: back to the pool
                self._released = True
                self._backend.release_event(self._event)
            while self._after:  # chained predecessors' events: done with too
                self._backend.release_event(self._after.pop())
            self._lift()  # the copy has finished: the memory may be touched again
            with STATE_LOCK:
                result = self._give_back(site)
            # The commit: plain stores, no call between them (no interrupt can land).
            self._handle, self._waited_at, self._state = None, site, _COMPLETED
            return result  # type: ignore[no-any-return]
        except BaseException:
            if mine:  # nothing reached the caller: pending again, waitable again
                self._handle, self._waited_at, self._state = handle, None, _PENDING
            raise

    def _check_capture(self, op: str, site: tuple[str, int]) -> None:
        capture = self._capture
        if capture is not None and capture.open:
            raise UseAfterTransferError(
                f"cannot {op} {self.label} at {where(site)}: it was recorded inside "
                f"{capture.label}, which is still open; nothing has run. Complete it after "
                "the capture block (it then completes at once), and run the work with "
                "graph.replay(...)."
            )

    def _give_back(self, site: tuple[str, int]) -> Any:
        """A new owned handle over the memory, and the books (idempotent: an interrupted
        wait() runs it again)."""
        handle = self._handle
        if handle is None:
            return None
        result = handle._reborn()
        scope = handle._scope
        if scope is not None:
            scope.give_back(self._number, result)
        if self._move is not None:
            self._move.returned_at = site
        self._core.pending.pop(self._number, None)
        return result

    def _take_over(self, site: tuple[str, int], by: str) -> Transfer[T]:
        """Move this pending transfer into a new object (a pool takes it over): the new
        one completes it; this one is retired, and its wait() names ``by``."""
        with STATE_LOCK:
            if self._state != _PENDING:
                raise self._completed_error(site)
            new: Transfer[T] = object.__new__(Transfer)
            for name in Transfer.__slots__:
                if name != "__weakref__":
                    object.__setattr__(new, name, getattr(self, name))
            self._handle = self._guard = None
            self._waited_at = site
            self._kind = f"{self._kind} (handed to {by})"
            self._state = _COMPLETED
            return new

    def _hand_on(self, site: tuple[str, int], successor: Transfer[Any]) -> None:
        """A chained transfer took this one's buffer over: unregister and retire this one.
        Plain stores, no backend call (nothing can fail half-way); its event goes back to
        the pool when the successor completes (the successor's wait covers it)."""
        self._core.pending.pop(self._number, None)
        handle = self._handle
        if handle is not None and handle._scope is not None:
            handle._scope.inflight.pop(self._number, None)
        if not self._released:
            self._released = True
            successor._after.append(self._event)
        successor._after.extend(self._after)
        self._after = []
        self._guard = None  # the successor's protection superseded this one's
        self._kind = f"{self._kind} (handed on to {successor._kind}#{successor._number})"
        self._handle, self._waited_at, self._state = None, site, _COMPLETED

    def _completed_error(self, site: tuple[str, int]) -> UseAfterTransferError:
        if self._state == _COMPLETING:
            return UseAfterTransferError(
                f"cannot wait() on {self.label} at {where(site)}: another wait() on it is in "
                "progress (another thread). A transfer is completed exactly once: use the "
                "handle that wait() returns there."
            )
        return UseAfterTransferError(
            f"cannot wait() on {self.label}: it was already completed at "
            f"{where(self._waited_at)}; its array was returned then. A transfer is "
            "completed exactly once: use the handle that first wait() returned."
        )

    def __await__(self) -> Generator[Any, None, T]:
        """``host = await transfer``: completes it without blocking the event loop.

        On a GPU the event is waited for in a worker thread (the driver call releases
        the GIL), not polled; on the simulator and the emulator it completes inline.
        """
        return self._wait_async().__await__()

    async def _wait_async(self) -> T:
        if (
            not self._backend.simulated
            and self._state == _PENDING
            and not self._synced
            and self._capture is None
        ):
            import asyncio

            await asyncio.to_thread(self._backend.sync_event, self._event)
            self._synced = True
        return self.wait()

    def __del__(self) -> None:
        try:
            state, handle = self._state, self._handle
        except AttributeError:
            return
        if state == _COMPLETED or handle is None:
            return
        guard = self._guard
        if self._capture is not None:  # recorded, never run: nothing uses the memory
            self._synced = True
        if self._synced and guard is not None:  # the copy is over: nothing to guard
            guard.release()
        keep: Any = (handle._buf, handle._mem, guard)  # the protection ends with the keep
        scope = handle._scope
        if scope is not None:  # keep the memory pinned too; the block's exit still sees it
            keep = (keep, scope.pin)
            scope.dropped.add(self._number)
        if not self._synced:
            keep_alive(self._backend, self._event, keep)
        self._core.pending.pop(self._number, None)
        warnings.warn(
            f"{self.label} was garbage-collected without being completed. Its host memory "
            "is kept alive, unusable, until the copy finishes; call wait() (or poll done()) "
            "and rebind the array it returns.",
            ResourceWarning,
            stacklevel=2,
        )
