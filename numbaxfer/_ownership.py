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

Transitions are atomic: of two threads moving the same handle exactly one succeeds.
:data:`STATE_LOCK`, one re-entrant lock for the process, is held by every public entry
point across its check, enqueue and commit (never across a blocking wait), so that no
other thread's close, free, move or map can fall between them.
"""

from __future__ import annotations

import os
import sys
import threading
from types import TracebackType
from typing import Any, Final, Generic, NoReturn, TypeVar

from typing_extensions import TypeAliasType

from ._errors import BorrowError, UseAfterTransferError, where
from ._wording import ENDS, LEND_ENDED_FIX, TAKE_BACK_FIX, sentence

__all__ = [
    "STATE_LOCK",
    "BorrowFlag",
    "Consumed",
    "Lent",
    "LendScope",
    "MoveRecord",
    "Owned",
    "Unique",
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

#: Held across check -> enqueue -> commit by every entry point (re-entrant: entry points
#: call each other, and a Pipeline's step enqueues from inside map()).
STATE_LOCK: Final = threading.RLock()


def caller_site() -> tuple[str, int]:
    """The first frame outside numbaxfer: the user's file and line.

    Public methods call this directly, so the user's frame is usually two up; from a
    shallow stack (an ``atexit`` hook calling ``stream.close``) the outermost frame.
    """
    try:
        frame = _getframe(2)
    except ValueError:  # called from a frame with fewer than two callers
        frame = _getframe(1)
    code = frame.f_code
    if code.co_filename.startswith(_PACKAGE_DIR):
        while code.co_filename.startswith(_PACKAGE_DIR) and frame.f_back is not None:
            frame = frame.f_back
            code = frame.f_code
    return (code.co_filename, frame.f_lineno)


class Unique:
    """Base of every handle-like object: one object, one owner.

    Copying or pickling one would make a second owner of the same memory (or a second
    completion of the same transfer), so ``copy.copy``, ``copy.deepcopy`` and ``pickle``
    refuse it.
    """

    __slots__ = ()

    def _refuse_copy(self, how: str) -> NoReturn:
        name = getattr(self, "label", None) or type(self).__name__
        raise TypeError(
            f"cannot {how} {name}: a numbaxfer {type(self).__name__} is the one owner of its "
            "memory (or transfer); a copy would be a second owner. Pass the object itself, "
            "or lend it (`with x.lend() as view:`); to send work to another process, send a "
            "description of it and allocate there."
        )

    def __copy__(self) -> NoReturn:
        self._refuse_copy("copy")

    def __deepcopy__(self, memo: Any) -> NoReturn:
        self._refuse_copy("deep-copy")

    def __reduce_ex__(self, protocol: Any) -> NoReturn:
        self._refuse_copy("pickle")


class MoveRecord:
    """Where a handle went: the transfer that took it and, later, who got it back.

    ``kind`` is one of :data:`TRANSFER_KINDS` (a copy, a mapping or a pipeline run that
    gives the handle back from ``wait()``) or of the kinds in ``_wording.ENDS`` (the
    handle's memory went somewhere it does not come back from as this handle).
    """

    __slots__ = ("kind", "returned_at", "site", "stream", "transfer")

    def __init__(self, kind: str, stream: str, site: tuple[str, int], transfer: str = "") -> None:
        self.kind = kind
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
    """The runtime state of one handle. Methods raise before changing anything.

    A lent handle's flag has a ``root``: the owner's flag, where its lends (and lends
    of lends) are counted, so that the owner stays lent while any of them lives.
    """

    __slots__ = (
        "_expired",
        "_lend_sites",
        "_mode",
        "_moved",
        "_write_site",
        "lent_at",
        "name",
        "read_only",
        "root",
    )

    def __init__(
        self, name: str, lent_at: tuple[str, int] | None = None, root: BorrowFlag | None = None
    ) -> None:
        self.name = name
        #: Set on lent handles (where they were lent): they may be read and lent again,
        #: never written or moved.
        self.lent_at = lent_at
        self.read_only = lent_at is not None
        self.root: BorrowFlag = self if root is None else root.root
        self._mode = _FREE
        self._lend_sites: list[tuple[str, int]] = []
        self._write_site: tuple[str, int] | None = None
        self._moved: MoveRecord | None = None
        self._expired: MoveRecord | None = None  # why an expired handle ended, if not a lend

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
        """A word for repr(): ready, writing, lent, moved, freed, expired."""
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
    # Each holds STATE_LOCK for check-and-set, so that of two threads racing for the
    # same handle exactly one wins.
    def begin_write(self, site: tuple[str, int]) -> None:
        with STATE_LOCK:
            if self._mode != _FREE or self.read_only or self._lend_sites:
                self._check_exclusive("write()", site)
            self._mode = _WRITING
            self._write_site = site

    def end_write(self) -> None:
        with STATE_LOCK:
            if self._mode == _WRITING:
                self._mode = _FREE
            self._write_site = None

    def begin_lend(self, site: tuple[str, int]) -> None:
        """A lend of this handle starts; counted on the owner (the root)."""
        with STATE_LOCK:
            if self._mode != _FREE:
                self.check_read("lend()")
            root = self.root
            if root is not self and root._mode != _FREE:
                root.check_read("lend()")
            root._lend_sites.append(site)

    def end_lend(self, site: tuple[str, int]) -> None:
        with STATE_LOCK:
            self.root._lend_sites.remove(site)

    def move(self, record: MoveRecord) -> None:
        """Hand the handle over (to a transfer, or to ``free``). Atomic."""
        with STATE_LOCK:
            if self._mode != _FREE or self.read_only or self._lend_sites:
                self._check_exclusive(record.kind, record.site)
            self._mode = _MOVED
            self._moved = record

    def unmove(self) -> None:
        """Undo :meth:`move` when the enqueue that followed it failed."""
        with STATE_LOCK:
            if self._mode == _MOVED:
                self._mode = _FREE
                self._moved = None

    def retire(self, record: MoveRecord) -> None:
        """The handle's memory went where it does not come back from as this handle
        (a mapping's device view when the mapping ends). Unconditional."""
        with STATE_LOCK:
            self._mode = _MOVED
            self._moved = record

    def expire(self, why: MoveRecord | None = None) -> None:
        """The handle may not be used any more: its lend block ended, or ``why``."""
        with STATE_LOCK:
            self._mode = _EXPIRED
            self._expired = why

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
            why = self._expired
            if why is not None:
                return BorrowError(
                    f"cannot {op} {self.label}: " + ENDS[why.kind].format(site=where(why.site))
                )
            return BorrowError(
                f"cannot {op} {self.label}: it was lent for a `with ...lend()` block that has "
                f"ended. {sentence(LEND_ENDED_FIX.format(owner=''))}."
            )
        rec = self._moved
        assert rec is not None
        end = ENDS.get(rec.kind)
        if end is not None:
            return UseAfterTransferError(
                f"cannot {op} {self.label}: " + end.format(site=where(rec.site))
            )
        on = f" on {rec.stream}" if rec.stream else ""
        into = rec.transfer or rec.kind
        if rec.returned_at is None:
            if rec.kind.startswith("replay"):  # a graph replay (nx.capture)
                return UseAfterTransferError(
                    f"cannot {op} {self.label}: it was moved into {into} ({rec.kind}){on} "
                    f"at {where(rec.site)} and the replay may still be running. Fix: take "
                    "the buffers back from the replay first, `a, b = run.wait()`, then use them."
                )
            return UseAfterTransferError(
                f"cannot {op} {self.label}: it was moved into {into}{on} at "
                f"{where(rec.site)} and the copy may still be running. Fix: "
                + TAKE_BACK_FIX.format(buffer="buf", transfer="transfer")
                + ", then use `buf`."
            )
        return UseAfterTransferError(
            f"cannot {op} {self.label}: it was moved into {into}{on} at {where(rec.site)}; "
            f"the transfer completed at {where(rec.returned_at)} and returned ownership as a "
            "new handle. Use the handle that wait() returned (`buf = transfer.wait()`)."
        )


_V = TypeVar("_V")
_H = TypeVar("_H")


class WriteScope(Unique, Generic[_V]):
    """The with-block of ``write()``: the borrow starts at ``__enter__`` (checked
    already at the ``write()`` call, so that an error names the user's line) and ends at
    ``__exit__``, which also seals the view read-only. Enter it once."""

    __slots__ = ("_entered", "_flag", "_live", "_site", "_view")

    def __init__(self, flag: BorrowFlag, view: _V, site: tuple[str, int]) -> None:
        self._flag = flag
        self._view = view
        self._site = site
        self._entered = False
        self._live = False  # between this scope's own enter and exit

    def __enter__(self) -> _V:
        with STATE_LOCK:
            if self._entered:
                raise RuntimeError(
                    f"the write() scope of {self._flag.label} taken at {where(self._site)} was "
                    "already entered; call write() again for a new block."
                )
            self._flag.begin_write(self._site)
            self._entered = self._live = True
        return self._view

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        with STATE_LOCK:
            if not self._live:  # a stale or second exit ends nothing (not a later block)
                return
            self._live = False
            self._view.setflags(write=False)  # type: ignore[attr-defined]
            self._flag.end_write()


class LendScope(Unique, Generic[_H]):  # mypy_plugin.LEND_SCOPE keys on this name
    """The with-block of ``lend()``: the lend starts at ``__enter__`` and the lent
    handle expires at ``__exit__``. Enter it once."""

    __slots__ = ("_entered", "_lent", "_lent_flag", "_live", "_owner_flag", "_site")

    def __init__(
        self, owner_flag: BorrowFlag, site: tuple[str, int], lent: _H, lent_flag: BorrowFlag
    ) -> None:
        self._owner_flag = owner_flag
        self._site = site
        self._lent = lent
        self._lent_flag = lent_flag
        self._entered = False
        self._live = False

    def __enter__(self) -> _H:
        with STATE_LOCK:
            if self._entered:
                raise RuntimeError(
                    f"the lend() scope of {self._owner_flag.label} taken at {where(self._site)} "
                    "was already entered; call lend() again for a new block."
                )
            self._owner_flag.begin_lend(self._site)
            self._entered = self._live = True
        return self._lent

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        with STATE_LOCK:
            if not self._live:  # a stale or second exit ends nothing (not another lend)
                return
            self._live = False
            self._lent_flag.expire()
            self._owner_flag.end_lend(self._site)
