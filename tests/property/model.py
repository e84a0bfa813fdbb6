"""The reference model: what a numbaxfer program means, run sequentially.

Data: every copy and kernel takes effect when it is enqueued (the program's intended
meaning); a write block takes effect when it writes. A program that numbaxfer accepts
must leave the same host and device contents under every schedule of the emulator.

Rules: each handle has a :class:`Flag` that follows DESIGN.md's rules as a
specification, and each operation lists the errors it must raise, in the order
numbaxfer checks them (the stream first, then argument kinds and shapes, then the
borrow flags of the arguments in parameter order, then a strict stream's cross-stream
dependencies). The first one is the error the call raises; an empty list means the
call succeeds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx

ErrorType = type[Exception]

# Borrow modes, as in numbaxfer/_ownership.py (this is the specification they follow).
FREE: Final = 0
WRITING: Final = 1  # inside a write() block
MOVED: Final = 2  # moved into a transfer, or freed
EXPIRED: Final = 3  # a lent handle after its with-block


@dataclass(eq=False)
class Flag:
    """The borrow state of one handle."""

    mode: int = FREE
    read_only: bool = False  # a lent handle
    lends: int = 0  # live lends taken from this handle

    def dead(self) -> ErrorType | None:
        """Rule 1 (moved or freed) and rule 3 (a lend that ended)."""
        if self.mode == MOVED:
            return nx.UseAfterTransferError
        if self.mode == EXPIRED:
            return nx.BorrowError
        return None

    def readable(self) -> ErrorType | None:
        """read(), lend(), a download or copy source."""
        if self.mode == WRITING:
            return nx.BorrowError
        return self.dead()

    def exclusive(self) -> ErrorType | None:
        """write(), a move, free(), a copy destination, a kernel argument, close()."""
        dead = self.dead()
        if dead is not None:
            return dead
        if self.read_only or self.mode == WRITING or self.lends:
            return nx.BorrowError
        return None


@dataclass(eq=False)
class Buffer:
    """The intended contents of one host or device allocation."""

    name: str
    data: NDArray[np.float64]
    freed: bool = False
    #: Host only: moved into a transfer that was dropped; no handle will come back.
    orphaned: bool = False
    #: The newest owner handle (the one a correct program uses).
    current: Handle | None = None
    #: Device only (rule 4): the stream that last wrote it and when, and the streams
    #: that read it since and when (the writer's own reads included: a later write on
    #: another stream must wait for them too). Times on the model's logical clock.
    writer: Core | None = None
    written_at: int = 0
    readers: dict[Core, int] = field(default_factory=dict)
    #: Device only: the device it was allocated on.
    device: int = 0


@dataclass(eq=False)
class Core:
    """One stream, shared by its owner handle and the handles lent from it."""

    name: str
    strict: bool = False
    closed: bool = False
    pending: list[Xfer] = field(default_factory=list)  # uploads/downloads not completed
    #: other stream -> the clock when this stream last waited (on the device) for all
    #: work enqueued there: an explicit ``wait_for``, or one numbaxfer inserted.
    waited: dict[Core, int] = field(default_factory=dict)
    #: The device the stream runs on.
    device: int = 0


@dataclass(eq=False)
class Handle:
    """A host array, device array or stream handle, in every world at once."""

    kind: str  # "host", "device" or "stream"
    name: str
    flag: Flag
    real: list[Any]  # the real handle in each world
    buf: Buffer | None = None  # host and device handles
    core: Core | None = None  # stream handles
    owner: Handle | None = None  # lent handles

    @property
    def shape(self) -> tuple[int, ...]:
        assert self.buf is not None
        return self.buf.data.shape

    def __repr__(self) -> str:
        return self.name


@dataclass(eq=False)
class Xfer:
    """A transfer: upload, download or device copy."""

    kind: str
    name: str
    core: Core
    real: list[Any]
    moved: Handle | None = None  # the host handle it took (upload/download)
    completed: bool = False
    dropped: bool = False

    def __repr__(self) -> str:
        return self.name


def errors(*checks: ErrorType | None) -> list[ErrorType]:
    """The errors a call must raise, first one first."""
    return [c for c in checks if c is not None]


def stream_open(s: Handle) -> ErrorType | None:
    assert s.core is not None
    return s.flag.dead() or (nx.StreamClosedError if s.core.closed else None)


def match(a: Handle, b: Handle) -> ErrorType | None:
    return ValueError if a.shape != b.shape else None


def placed(s: Handle, dv: Handle) -> ErrorType | None:
    """An upload, a download or a kernel takes device arrays of its stream's device."""
    assert s.core is not None and dv.buf is not None
    return nx.DeviceMismatchError if dv.buf.device != s.core.device else None


def copy_placed(s: Handle, src: Handle, to: Handle) -> ErrorType | None:
    """A device-to-device copy runs on a stream of the source's or the destination's
    device (both, for a copy within one device)."""
    assert s.core is not None and src.buf is not None and to.buf is not None
    if s.core.device not in (src.buf.device, to.buf.device):
        return nx.DeviceMismatchError
    if src.buf.device == to.buf.device != s.core.device:
        return nx.DeviceMismatchError
    return None


Use = tuple[Handle, bool]  # a device array and whether the call writes it


class Clock:
    """The model's logical time: one tick per use of a device array by a stream."""

    def __init__(self) -> None:
        self.now = 0


def _unwaited(core: Core, other: Core | None, at: int) -> bool:
    """Did ``other`` use the array at time ``at``, after ``core`` last waited for it?"""
    return other is not None and other is not core and core.waited.get(other, -1) < at


def cross_stream(s: Handle, uses: list[Use]) -> ErrorType | None:
    """Rule 4 on a strict stream: it refuses work that depends on another stream's work
    it has not waited for: the array's last writer (any use) or its readers since (a
    write). Checked after every borrow flag, for every argument before anything changes."""
    core = s.core
    assert core is not None
    if not core.strict:
        return None
    for h, writes in uses:
        buf = h.buf
        assert buf is not None
        if _unwaited(core, buf.writer, buf.written_at):
            return nx.CrossStreamError
        if writes and any(_unwaited(core, r, at) for r, at in buf.readers.items()):
            return nx.CrossStreamError
    return None


def ordered(clock: Clock, s: Handle, uses: list[Use]) -> None:
    """The call succeeded: a non-strict stream waited for what it depends on, and each
    array records who used it, when."""
    core = s.core
    assert core is not None
    for h, writes in uses:
        buf = h.buf
        assert buf is not None
        writer = buf.writer
        if writer is not None and _unwaited(core, writer, buf.written_at):
            core.waited[writer] = clock.now
        clock.now += 1
        if writes:
            for r, at in list(buf.readers.items()):
                if _unwaited(core, r, at):
                    core.waited[r] = clock.now
            buf.writer, buf.written_at, buf.readers = core, clock.now, {}
        else:  # every read since the last write, the writer's own included
            buf.readers[core] = clock.now


def wait_for(clock: Clock, s: Handle, other: Handle) -> None:
    """``s.wait_for(other)`` succeeded: later work on ``s`` waits for all of ``other``'s."""
    assert s.core is not None and other.core is not None
    if other.core is not s.core:
        s.core.waited[other.core] = clock.now


def upload(s: Handle, src: Handle, to: Handle) -> list[ErrorType]:
    return errors(
        stream_open(s),
        placed(s, to),
        match(src, to),
        to.flag.exclusive(),
        src.flag.exclusive(),
        cross_stream(s, [(to, True)]),
    )


def download(s: Handle, src: Handle, into: Handle) -> list[ErrorType]:
    return errors(
        stream_open(s),
        placed(s, src),
        match(src, into),
        src.flag.readable(),
        into.flag.exclusive(),
        cross_stream(s, [(src, False)]),
    )


def copy(s: Handle, src: Handle, to: Handle) -> list[ErrorType]:
    return errors(
        stream_open(s),
        copy_placed(s, src, to),
        match(src, to),
        src.flag.readable(),
        to.flag.exclusive(),
        cross_stream(s, [(src, False), (to, True)]),
    )


def launch(s: Handle, uses: list[Use]) -> list[ErrorType]:
    """A plain numba kernel may write every array argument; an ``nx.kernel`` declares
    which it only reads (those may be lent)."""
    return errors(
        stream_open(s),
        *(
            placed(s, h) or (h.flag.exclusive() if writes else h.flag.readable())
            for h, writes in uses
        ),
        cross_stream(s, uses),
    )


def close(s: Handle) -> list[ErrorType]:
    assert s.core is not None
    pending = nx.StreamClosedError if s.core.pending else None
    return errors(stream_open(s), s.flag.exclusive(), pending)


def wait(t: Xfer) -> list[ErrorType]:
    return errors(nx.UseAfterTransferError if t.completed else None)


def is_bad_input(errs: list[ErrorType]) -> bool:
    """Refused as bad input (rule 6: shape, memory kind) rather than by ownership."""
    return any(not issubclass(e, nx.OwnershipError) for e in errs)


# -- kernels: the numpy meaning of the kernels in programs.py ---------------------------
def add_const(a: NDArray[np.float64], c: float) -> NDArray[np.float64]:
    return a + c


def mix(dst: NDArray[np.float64], src: NDArray[np.float64]) -> NDArray[np.float64]:
    return dst + 2.0 * src + 1.0
