"""Capability markers and the runtime borrow flag. Imports nothing from CUDA.

``Owned`` and ``Lent`` exist for the type checker only: they parametrise handles
(``PinnedArray[Owned, np.float32]``) and are never instantiated. ``Consumed[T]`` marks a
parameter that takes ownership of its argument; the mypy plugin reads it, and at run
time the callee moves the handle's :class:`BorrowFlag`.

One :class:`BorrowFlag` lives in every handle and enforces, at run time, the same rules
the plugin checks statically:

* a moved handle may not be used at all (read, write, lend, move, free);
* while a ``write()`` view is open the handle may not be read, lent or moved;
* while lent, the owner may not write, move or free;
* a lent handle expires when its ``with`` block ends.

Transitions are atomic (one lock for all flags): of two threads moving the same
handle exactly one succeeds.
"""

from __future__ import annotations

import os
import sys
import threading
from types import TracebackType
from typing import Final, Generic, TypeVar

from typing_extensions import TypeAliasType

from ._errors import BorrowError, UseAfterTransferError, where

__all__ = [
    "BorrowFlag",
    "Consumed",
    "Lent",
    "LendScope",
    "MoveRecord",
    "Owned",
    "WriteScope",
    "caller_site",
]


class Lent:
    """Capability: may read and enqueue reads; may not write, move, free or close.

    A phantom type: it parametrises handles and is never instantiated.
    """

    def __init__(self) -> None:
        raise TypeError("Lent is a phantom capability type; it has no instances")


class Owned(Lent):
    """Capability: full ownership. Everything ``Lent`` may do, plus write, move
    (hand to a transfer), free and close. ``Owned`` is a subtype of ``Lent``, so an
    owned handle is accepted wherever a lent one is expected.
    """


_T = TypeVar("_T")

#: Marks a parameter that takes ownership of its argument: after the call, the
#: caller's name is moved and may not be used until it is rebound (rule 1).
#: ``def stage(buf: nx.Consumed[nx.PinnedArray[nx.Owned, np.float32]]) -> ...``.
#: To the type checker ``Consumed[T]`` is exactly ``T``; the mypy plugin reads the
#: alias to know which arguments move.
#: (mypy_plugin.CONSUMED keys on this full name: rename both together.)
Consumed = TypeAliasType("Consumed", _T, type_params=(_T,))

_PACKAGE_DIR: Final = os.path.dirname(os.path.abspath(__file__))
_getframe: Final = sys._getframe
_LOCK: Final = threading.Lock()


def caller_site() -> tuple[str, int]:
    """The first frame outside numbaxfer: the user's file and line.

    Public methods call this directly, so the user's frame is usually two up.
    """
    frame = _getframe(2)
    code = frame.f_code
    if code.co_filename.startswith(_PACKAGE_DIR):
        while code.co_filename.startswith(_PACKAGE_DIR) and frame.f_back is not None:
            frame = frame.f_back
            code = frame.f_code
    return (code.co_filename, frame.f_lineno)


class MoveRecord:
    """Where a handle went: the transfer that took it and, later, who got it back."""

    __slots__ = ("kind", "returned_at", "site", "stream", "transfer")

    def __init__(self, kind: str, stream: str, site: tuple[str, int], transfer: str = "") -> None:
        self.kind = kind  # "upload", "download", "free", ...
        self.stream = stream  # label of the stream, or "" for moves that involve none
        self.site = site
        self.transfer = transfer  # the transfer's short name ("upload#3"), once it exists
        self.returned_at: tuple[str, int] | None = None


# Modes of a flag.
_FREE: Final = 0
_WRITING: Final = 1
_MOVED: Final = 2
_EXPIRED: Final = 3  # a lent handle after its with-block


class BorrowFlag:
    """The runtime state of one handle. Methods raise before changing anything."""

    __slots__ = ("_lend_sites", "_mode", "_moved", "_write_site", "lent_at", "name", "read_only")

    def __init__(self, name: str, lent_at: tuple[str, int] | None = None) -> None:
        self.name = name
        #: Set on lent handles (where they were lent): they may be read and lent again,
        #: never written or moved.
        self.lent_at = lent_at
        self.read_only = lent_at is not None
        self._mode = _FREE
        self._lend_sites: list[tuple[str, int]] = []
        self._write_site: tuple[str, int] | None = None
        self._moved: MoveRecord | None = None

    # -- queries -------------------------------------------------------------
    @property
    def label(self) -> str:
        """The handle's name in messages (formatted only when a message needs it)."""
        if self.lent_at is None:
            return self.name
        return f"{self.name} (lent at {where(self.lent_at)})"

    @property
    def is_moved(self) -> bool:
        return self._mode == _MOVED

    @property
    def is_lent(self) -> bool:
        return bool(self._lend_sites)

    @property
    def is_usable(self) -> bool:
        return self._mode in (_FREE, _WRITING)

    def state(self) -> str:
        """A word for repr(): owned, writing, lent, moved, expired."""
        if self._mode == _MOVED:
            return "moved" if self._moved is None or self._moved.kind != "free" else "freed"
        if self._mode == _EXPIRED:
            return "expired"
        if self._mode == _WRITING:
            return "writing"
        return "lent" if self._lend_sites else "ready"

    # -- checks --------------------------------------------------------------
    def check_alive(self, op: str) -> None:
        """Raise if the handle was moved, freed or expired."""
        if self._mode >= _MOVED:
            raise self._dead_error(op)

    def check_read(self, op: str) -> None:
        """Reading: allowed unless moved, or a write view is open."""
        if self._mode != _FREE:
            if self._mode == _WRITING:
                raise BorrowError(
                    f"cannot {op} {self.label}: its write() view is open (opened at "
                    f"{where(self._write_site)}). Finish the `with ...write()` block first, or "
                    "read through the view it gave you."
                )
            raise self._dead_error(op)

    def check_writable(self, op: str, site: tuple[str, int]) -> None:
        """Raise unless the handle could be written or moved now (changes nothing)."""
        if self._mode != _FREE or self.read_only or self._lend_sites:
            self._check_exclusive(op, site)

    # -- transitions ---------------------------------------------------------
    # Transitions hold one lock for check-and-set, so that of two threads racing for
    # the same handle exactly one wins. (acquire/release in try/finally: cheaper than
    # `with` on CPython.)
    def begin_write(self, site: tuple[str, int]) -> None:
        _LOCK.acquire()
        try:
            if self._mode != _FREE or self.read_only or self._lend_sites:
                self._check_exclusive("write()", site)
            self._mode = _WRITING
            self._write_site = site
        finally:
            _LOCK.release()

    def end_write(self) -> None:
        if self._mode == _WRITING:
            self._mode = _FREE
        self._write_site = None

    def begin_lend(self, site: tuple[str, int]) -> None:
        _LOCK.acquire()
        try:
            if self._mode != _FREE:
                self.check_read("lend()")
            self._lend_sites.append(site)
        finally:
            _LOCK.release()

    def end_lend(self, site: tuple[str, int]) -> None:
        self._lend_sites.remove(site)  # list.remove is atomic under the GIL

    def move(self, record: MoveRecord) -> None:
        """Hand the handle over (to a transfer, or to ``free``). Atomic."""
        _LOCK.acquire()
        try:
            if self._mode != _FREE or self.read_only or self._lend_sites:
                self._check_exclusive(record.kind, record.site)
            self._mode = _MOVED
            self._moved = record
        finally:
            _LOCK.release()

    def unmove(self) -> None:
        """Undo :meth:`move` when the enqueue that followed it failed."""
        self._mode = _FREE
        self._moved = None

    def expire(self) -> None:
        """End of a lend block: the lent handle may not be used any more."""
        self._mode = _EXPIRED

    # -- messages ------------------------------------------------------------
    def _check_exclusive(self, op: str, site: tuple[str, int]) -> None:
        if self._mode >= _MOVED:
            raise self._dead_error(op)
        if self.read_only:
            raise BorrowError(
                f"cannot {op} {self.label} at {where(site)}: it is a lent (read-only) handle. "
                "Only the owner may write, move or free; do it outside the lend block."
            )
        if self._mode == _WRITING:
            raise BorrowError(
                f"cannot {op} {self.label} at {where(site)}: its write() view is still open "
                f"(opened at {where(self._write_site)}). Leave the `with ...write()` block first."
            )
        if self._lend_sites:
            sites = ", ".join(where(s) for s in self._lend_sites)
            raise BorrowError(
                f"cannot {op} {self.label} at {where(site)}: it is lent "
                f"({len(self._lend_sites)} live lend(s), taken at {sites}). A lent buffer may "
                "only be read; leave the `with ...lend()` block(s) first."
            )

    def _dead_error(self, op: str) -> Exception:
        if self._mode == _EXPIRED:
            return BorrowError(
                f"cannot {op} {self.label}: it was lent for a `with ...lend()` block that has "
                "ended. A lent handle is valid only inside its block; lend again, or use the "
                "owner."
            )
        rec = self._moved
        assert rec is not None
        if rec.kind == "free":
            return UseAfterTransferError(
                f"cannot {op} {self.label}: it was freed at {where(rec.site)}. "
                "Allocate a new array."
            )
        on = f" on {rec.stream}" if rec.stream else ""
        into = rec.transfer or rec.kind
        if rec.returned_at is None:
            return UseAfterTransferError(
                f"cannot {op} {self.label}: it was moved into {into}{on} at "
                f"{where(rec.site)} and the copy may still be running. Fix: take it back "
                "from the transfer first, `buf = transfer.wait()`, then use `buf`."
            )
        return UseAfterTransferError(
            f"cannot {op} {self.label}: it was moved into {into}{on} at {where(rec.site)}; "
            f"the transfer completed at {where(rec.returned_at)} and returned ownership as a "
            "new handle. Use the handle that wait() returned (`buf = transfer.wait()`)."
        )


_V = TypeVar("_V")
_H = TypeVar("_H")


class WriteScope(Generic[_V]):
    """The with-block of ``write()``: yields the writable view, seals it at exit."""

    __slots__ = ("_flag", "_view")

    def __init__(self, flag: BorrowFlag, view: _V) -> None:
        self._flag = flag
        self._view = view

    def __enter__(self) -> _V:
        return self._view

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._view.setflags(write=False)  # type: ignore[attr-defined]
        self._flag.end_write()


class LendScope(Generic[_H]):  # mypy_plugin.LEND_SCOPE keys on this name
    """The with-block of ``lend()``: yields the lent handle, expires it at exit."""

    __slots__ = ("_lent", "_lent_flag", "_owner_flag", "_site")

    def __init__(
        self, owner_flag: BorrowFlag, site: tuple[str, int], lent: _H, lent_flag: BorrowFlag
    ) -> None:
        self._owner_flag = owner_flag
        self._site = site
        self._lent = lent
        self._lent_flag = lent_flag

    def __enter__(self) -> _H:
        return self._lent

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._lent_flag.expire()
        self._owner_flag.end_lend(self._site)
