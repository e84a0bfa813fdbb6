"""Test-only switches: each turns one of numbaxfer's runtime rules off by monkeypatching.

No library code changes: every switch replaces a check with a version that skips the one
condition it stands for, through ``pytest.MonkeyPatch`` (undone at the end of the test).
``test_teeth.py`` turns each off in turn and asserts that the property tests find a
wrong result or a missing error. The targets, per rule:

=====================  =================================================================
switch                 what is replaced
=====================  =================================================================
moved-use              ``BorrowFlag.check_alive/check_read/_check_exclusive``: a moved
                       (or freed) handle passes them
wait-once              ``Transfer.wait``: a second ``wait()`` returns the array again
drop-warning           ``Transfer.__del__``: no ResourceWarning, no keep-alive
lend-exclusive         ``BorrowFlag._check_exclusive``: live lends do not block the owner
lent-read-only         ``BorrowFlag._check_exclusive``: lent handles may write and move
lend-scope             ``BorrowFlag.check_*``: a lent handle stays usable after its block
write-exclusive        ``BorrowFlag.check_read/_check_exclusive``: an open ``write()``
                       view does not block reads, lends, moves or another write
write-view-sealed      ``_ownership.WriteScope.__exit__``: the write view stays writable
read-view-read-only    ``PinnedArray.read``: the view is writable
cross-stream-order     ``_order.StreamCore.wait_for``: no event wait between streams
strict-stream          ``StreamCore.refuse_cross_stream``: a strict stream waits instead
kernel-write-intent    ``Stream.launch``: an ``nx.kernel``'s written parameters are
                       treated as read ones (may be lent, ordered as reads)
close-pending          ``Stream.close``: it sees no unfinished transfers
closed-stream          ``Stream._check_open``: a closed stream accepts work
shape-match            ``_stream.check_match``: shapes are not compared
pageable               ``_stream.check_host``: numpy memory is not refused
device-placement       ``check_same_backend``, ``refuse_device``: arrays of another
                       device of the host pass (a kernel, an upload, a download, a copy
                       on a stream of neither device)
cross-device-order     ``_order.StreamCore.wait_for``: no event wait between streams of
                       different devices (between streams of one device: kept)
=====================  =================================================================
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from numbaxfer import _checks, _order, _ownership, _stream, _transfer
from numbaxfer._host import PinnedArray
from numbaxfer._ownership import BorrowFlag
from numbaxfer._stream import Kernel, Stream
from numbaxfer._transfer import Transfer

Switch = Callable[[pytest.MonkeyPatch], None]


def _pretend_free(mp: pytest.MonkeyPatch, mode: int, *methods: str) -> None:
    """While these checks run, a flag in ``mode`` looks free (the rule of that mode is off)."""
    for name in methods:
        original = getattr(BorrowFlag, name)

        def check(self: BorrowFlag, *args: Any, _original: Any = original) -> Any:
            if self._mode != mode:
                return _original(self, *args)
            self._mode = _ownership._FREE
            try:
                return _original(self, *args)
            finally:
                if self._mode == _ownership._FREE:
                    self._mode = mode

        mp.setattr(BorrowFlag, name, check)


def _hide(mp: pytest.MonkeyPatch, attr: str, empty: Any) -> None:
    """While ``_check_exclusive`` runs, the flag's ``attr`` looks empty."""
    original = BorrowFlag._check_exclusive

    def check(self: BorrowFlag, op: str, site: tuple[str, int]) -> None:
        saved = getattr(self, attr)
        setattr(self, attr, empty)
        try:
            original(self, op, site)
        finally:
            setattr(self, attr, saved)

    mp.setattr(BorrowFlag, "_check_exclusive", check)


def moved_use(mp: pytest.MonkeyPatch) -> None:
    _pretend_free(mp, _ownership._MOVED, "check_alive", "check_read", "_check_exclusive")


def wait_once(mp: pytest.MonkeyPatch) -> None:
    original = Transfer.wait
    kept: weakref.WeakKeyDictionary[Transfer[Any], dict[str, Any]] = weakref.WeakKeyDictionary()
    held = ("_buf", "_mem")  # what wait() hands back, then forgets

    def wait(self: Transfer[Any]) -> Any:
        if self._state == _transfer._COMPLETED:  # complete it again
            self._state = _transfer._PENDING
            for name, value in kept.get(self, {}).items():
                setattr(self, name, value)
        kept[self] = {name: getattr(self, name) for name in held if hasattr(self, name)}
        return original(self)

    mp.setattr(Transfer, "wait", wait)


def drop_warning(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(Transfer, "__del__", lambda self: None)


def lend_exclusive(mp: pytest.MonkeyPatch) -> None:
    _hide(mp, "_lend_sites", [])


def lent_read_only(mp: pytest.MonkeyPatch) -> None:
    _hide(mp, "read_only", False)


def lend_scope(mp: pytest.MonkeyPatch) -> None:
    _pretend_free(mp, _ownership._EXPIRED, "check_alive", "check_read", "_check_exclusive")


def write_exclusive(mp: pytest.MonkeyPatch) -> None:
    _pretend_free(mp, _ownership._WRITING, "check_read", "_check_exclusive")


def write_view_sealed(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(_ownership.WriteScope, "__exit__", lambda self, *exc: self._flag.end_write())


def read_view_read_only(mp: pytest.MonkeyPatch) -> None:
    def read(self: PinnedArray[Any, Any]) -> Any:
        self._flag.check_read("read()")
        return self._buf.view()

    mp.setattr(PinnedArray, "read", read)


def cross_stream_order(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(_order.StreamCore, "wait_for", lambda self, other: None)


def strict_stream(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(_order.StreamCore, "refuse_cross_stream", lambda self, order, other, how: None)


def kernel_write_intent(mp: pytest.MonkeyPatch) -> None:
    original = Stream.launch

    def launch(self: Stream[Any], kernel: Any, griddim: Any, blockdim: Any, *args: Any) -> None:
        if isinstance(kernel, Kernel):
            reads_only = object.__new__(Kernel)
            reads_only.dispatcher, reads_only.name = kernel.dispatcher, kernel.name
            reads_only.params = kernel.params
            reads_only.intents = tuple(
                _stream.READ if i == _stream.WRITE else i for i in kernel.intents
            )
            kernel = reads_only
        original(self, kernel, griddim, blockdim, *args)

    mp.setattr(Stream, "launch", launch)


def close_pending(mp: pytest.MonkeyPatch) -> None:
    original = Stream.close

    def close(self: Stream[Any]) -> None:
        core = self._core
        pending = core.pending
        core.pending = type(pending)()  # close() sees nothing unfinished
        try:
            original(self)
        finally:
            core.pending = pending

    mp.setattr(Stream, "close", close)


def closed_stream(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(Stream, "_check_open", lambda self, op, site: self._flag.check_alive(op))


def shape_match(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(_stream, "check_match", lambda a, b, op: None)


def pageable(mp: pytest.MonkeyPatch) -> None:
    original = _checks.check_host

    def check_host(x: object, op: str, param: str, backend: Any) -> None:
        if not isinstance(x, np.ndarray):
            original(x, op, param, backend)

    mp.setattr(_stream, "check_host", check_host)


def device_placement(mp: pytest.MonkeyPatch) -> None:
    original = _checks.check_same_backend

    def check_same_backend(x: Any, op: str, param: str, backend: Any, *rest: Any) -> None:
        if x._backend.family is not backend.family:
            original(x, op, param, backend, *rest)

    for module in (_checks, _stream):
        mp.setattr(module, "check_same_backend", check_same_backend)
    mp.setattr(_stream, "refuse_device", lambda *args: None)


def cross_device_order(mp: pytest.MonkeyPatch) -> None:
    original = _order.StreamCore.wait_for

    def wait_for(self: _order.StreamCore, other: _order.StreamCore) -> None:
        if other.backend is self.backend:
            original(self, other)

    mp.setattr(_order.StreamCore, "wait_for", wait_for)


SWITCHES: dict[str, Switch] = {
    "moved-use": moved_use,
    "wait-once": wait_once,
    "drop-warning": drop_warning,
    "lend-exclusive": lend_exclusive,
    "lent-read-only": lent_read_only,
    "lend-scope": lend_scope,
    "write-exclusive": write_exclusive,
    "write-view-sealed": write_view_sealed,
    "read-view-read-only": read_view_read_only,
    "cross-stream-order": cross_stream_order,
    "strict-stream": strict_stream,
    "kernel-write-intent": kernel_write_intent,
    "close-pending": close_pending,
    "closed-stream": closed_stream,
    "shape-match": shape_match,
    "pageable": pageable,
    "device-placement": device_placement,
    "cross-device-order": cross_device_order,
}
