"""Streams: ``Stream[Cap]``, where copies and kernels are enqueued."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

import numpy as np

from ._backend import Backend, get_backend
from ._device import DeviceArray
from ._errors import CrossStreamError, PageableMemoryError, StreamClosedError, where
from ._host import PinnedArray, _LendScope
from ._kernel import READ, WRITE, Kernel
from ._ownership import BorrowFlag, Consumed, Lent, MoveRecord, Owned, caller_site
from ._transfer import Transfer, describe

if TYPE_CHECKING:
    from ._device import DeviceOrder
    from ._mapped import MappedArray, Mapping

__all__ = ["Stream", "stream"]

Cap = TypeVar("Cap", bound=Lent, covariant=True)
DT = TypeVar("DT", bound=np.generic)
_numbers = itertools.count(1)


class _StreamCore:
    """What the owner and every lent handle of one stream share."""

    __slots__ = (
        "backend",
        "closed_at",
        "epoch",
        "label",
        "pending",
        "raw",
        "strict",
        "synced",
        "tail",
    )

    def __init__(self, backend: Backend, label: str, strict: bool = False) -> None:
        self.backend = backend
        #: Raise CrossStreamError instead of inserting a cross-stream event wait.
        self.strict = strict
        #: Counts this stream's uses of device arrays; ``synced[other]`` is the epoch of
        #: ``other`` that this stream has already waited for on the device.
        self.epoch = 0
        self.synced: dict[_StreamCore, int] = {}
        self.raw: Any = backend.new_stream()
        self.label = label
        #: Transfers started here that hold host memory and are not completed:
        #: number -> (kind, array name). Not the transfers themselves, so that a dropped
        #: one is collected (and warns).
        self.pending: dict[int, tuple[str, str]] = {}
        self.closed_at: tuple[str, int] | None = None
        #: Event recorded at close: later cross-stream waits on this stream use it.
        self.tail: Any = None

    def wait_for(self, other: _StreamCore) -> None:
        """Make later work here wait, on the device, for all work enqueued on ``other``."""
        self.synced[other] = other.epoch
        if other.closed_at is not None:
            self.backend.wait_event(self.raw, other.tail)
            return
        event = self.backend.record(other.raw)
        self.backend.wait_event(self.raw, event)
        self.backend.release_event(event)  # the wait captured it; the event may be reused


class Stream(Generic[Cap]):
    """A CUDA stream with an ownership capability.

    Work enqueued on one stream runs in order. ``Stream[Owned]`` (from
    :func:`stream`) may enqueue and close; ``Stream[Lent]`` (from ``lend()``) may
    enqueue but not close. Every method checks its arguments and the ownership rules
    before anything is enqueued; on error nothing has changed.
    """

    __slots__ = ("_backend", "_core", "_flag")

    _backend: Backend
    _core: _StreamCore
    _flag: BorrowFlag

    def __init__(self) -> None:
        raise TypeError("Streams are created with nx.stream().")

    @classmethod
    def _adopt(
        cls, core: _StreamCore, label: str, lent_at: tuple[str, int] | None = None
    ) -> Stream[Any]:
        self = object.__new__(cls)
        self._backend = core.backend
        self._core = core
        self._flag = BorrowFlag(label, lent_at)
        return self

    @property
    def label(self) -> str:
        return self._core.label

    @property
    def closed(self) -> bool:
        return self._core.closed_at is not None

    def __repr__(self) -> str:
        state = "closed" if self.closed else self._flag.state()
        return f"<{self._flag.label}: {state}>"

    # -- copies --------------------------------------------------------------
    def upload(
        self, src: Consumed[PinnedArray[Owned, DT]], *, to: DeviceArray[Owned, DT]
    ) -> Transfer[PinnedArray[Owned, DT]]:
        """Copy pinned ``src`` into device array ``to``, asynchronously on this stream.

        ``src`` MOVES into the transfer: until ``src = transfer.wait()`` every use of it
        raises (the copy reads it while the CPU runs on). ``to`` stays usable: work
        enqueued later on this stream sees the copied data (stream order); work on other
        streams is ordered after it by an event wait on the device.
        """
        site = caller_site()
        self._check_open("upload()", site)
        _check_host(src, "upload", "src", self._backend)
        _check_device(to, "upload", "to", self._backend)
        _check_match(src, to, "upload")
        to._flag.check_writable("upload() into", site)
        move = MoveRecord("upload", self.label, site)
        src._flag.move(move)
        try:
            self._order(to._order, writes=True)
            self._backend.copy_htod(self._core.raw, to._buf, src._mem)
        except BaseException:
            src._flag.unmove()
            raise
        return self._finish("upload", src, move)

    def download(
        self, src: DeviceArray[Lent, DT], *, into: Consumed[PinnedArray[Owned, DT]]
    ) -> Transfer[PinnedArray[Owned, DT]]:
        """Copy device array ``src`` into pinned ``into``, asynchronously on this stream.

        ``into`` MOVES into the transfer: reading it before ``into = transfer.wait()``
        would see stale data, so every use raises until then. The copy runs after the
        work already enqueued on this stream (and, if ``src`` was written on another
        stream, after that work too, by an event wait on the device).
        """
        site = caller_site()
        self._check_open("download()", site)
        _check_device(src, "download", "src", self._backend)
        _check_host(into, "download", "into", self._backend)
        _check_match(src, into, "download")
        src._flag.check_read("download() from")
        move = MoveRecord("download", self.label, site)
        into._flag.move(move)
        try:
            self._order(src._order, writes=False)
            self._backend.copy_dtoh(self._core.raw, into._mem, src._buf)
        except BaseException:
            into._flag.unmove()
            raise
        return self._finish("download", into, move)

    def copy(self, src: DeviceArray[Lent, DT], *, to: DeviceArray[Owned, DT]) -> Transfer[None]:
        """Copy device array ``src`` into device array ``to`` on this stream.

        Moves nothing: both arrays stay usable by later work (stream-ordered). The
        returned transfer's ``wait()`` blocks until the copy has finished and returns
        None; completing it is optional.
        """
        site = caller_site()
        self._check_open("copy()", site)
        _check_device(src, "copy", "src", self._backend)
        _check_device(to, "copy", "to", self._backend)
        _check_match(src, to, "copy")
        src._flag.check_read("copy() from")
        to._flag.check_writable("copy() into", site)
        if self._core.strict:
            self._check_strict(((src._order, False), (to._order, True)))
        self._order(src._order, writes=False)
        self._order(to._order, writes=True)
        self._backend.copy_dtod(self._core.raw, to._buf, src._buf)
        event = self._backend.record(self._core.raw)
        return Transfer._start(self, "copy", None, event, None, f"{src.label} -> {to.label}")

    # -- kernels -------------------------------------------------------------
    @overload
    def launch(
        self,
        kernel: Kernel,
        griddim: int | tuple[int, ...],
        blockdim: int | tuple[int, ...],
        *args: DeviceArray[Lent, Any] | complex | np.generic,
    ) -> None: ...
    @overload
    def launch(
        self,
        kernel: Any,
        griddim: int | tuple[int, ...],
        blockdim: int | tuple[int, ...],
        *args: DeviceArray[Owned, Any] | complex | np.generic,
    ) -> None: ...
    def launch(
        self,
        kernel: Any,
        griddim: int | tuple[int, ...],
        blockdim: int | tuple[int, ...],
        *args: DeviceArray[Any, Any] | complex | np.generic,
    ) -> None:
        """Launch a ``numba.cuda.jit`` kernel on this stream.

        With a plain numba kernel, every device-array argument may be written, so each
        must be owned (not lent). With an :func:`nx.kernel` (declared intents), arrays
        for ``reads`` parameters may be ``Lent`` and are ordered as reads. Host arrays
        are refused (upload them first). Work on other streams that touched an argument
        is ordered before the launch by an event wait on the device (rule 4).
        """
        site = caller_site()
        self._check_open("launch()", site)
        intents: tuple[int, ...] | None = None
        dispatcher = kernel
        if isinstance(kernel, Kernel):
            intents, dispatcher = kernel.intents, kernel.dispatcher
            if len(args) != len(intents):
                raise TypeError(
                    f"launch() at {where(site)}: {kernel.name} takes {len(intents)} "
                    f"arguments ({', '.join(kernel.params)}), got {len(args)}"
                )
        uses: list[tuple[DeviceOrder, bool]] = []
        raw_args: list[Any] = []
        for i, arg in enumerate(args):
            if isinstance(arg, DeviceArray):
                _check_same_backend(arg, "launch", f"argument {i}", self._backend)
                intent = WRITE if intents is None else intents[i]
                if intent == WRITE:
                    arg._flag.check_writable(
                        f"pass to a kernel that writes it (argument {i})", site
                    )
                elif intent == READ:
                    arg._flag.check_read(f"pass to a kernel (argument {i})")
                else:
                    assert isinstance(kernel, Kernel)
                    raise TypeError(
                        f"launch() at {where(site)}: {kernel.name}'s parameter "
                        f"{kernel.params[i]!r} got a device array but is declared neither in "
                        "reads nor in writes. Declare it: nx.kernel(reads=[...], writes=[...])."
                    )
                uses.append((arg._order, intent == WRITE))
                raw_args.append(self._backend.kernel_arg(arg._buf))
            elif isinstance(arg, (PinnedArray, np.ndarray)):
                raise TypeError(
                    f"launch() argument {i} at {where(site)} is host memory "
                    f"({type(arg).__name__}); numba would copy it synchronously. Upload it "
                    "into an nx.device_array with stream.upload() and pass that."
                )
            else:
                raw_args.append(arg)
        if self._core.strict:
            self._check_strict(uses)
        for order, writes in uses:
            self._order(order, writes=writes)
        self._backend.launch(self._core.raw, dispatcher, griddim, blockdim, raw_args)

    def wait_for(self, other: Stream[Any]) -> None:
        """Make work enqueued here from now on wait, on the device (an event wait, no
        host sync), for all work enqueued on ``other`` so far.

        numbaxfer inserts these waits itself where device arrays need them; call this to
        state a dependency explicitly, e.g. before using on a strict stream an array that
        ``other`` wrote.
        """
        site = caller_site()
        self._check_open("wait_for()", site)
        if other._core is not self._core:
            self._core.wait_for(other._core)

    def map(self, host: Consumed[MappedArray[Owned, DT]]) -> Mapping[DT]:
        """Hand mapped host memory to kernels, without a copy.

        ``host`` MOVES into the returned :class:`Mapping`; launch kernels with
        ``mapping.device`` (on this or any stream); ``host = mapping.wait()`` waits for
        exactly the work that used it and gives the array back.
        """
        from ._mapped import map_to_device

        return map_to_device(self, host)

    # -- host synchronization ------------------------------------------------
    def synchronize(self) -> None:
        """Block the host until all work enqueued on this stream has finished.

        Explicit and stream-wide; transfers still have to be completed with ``wait()``
        (which then returns at once) to get their arrays back.
        """
        self._check_open("synchronize()", caller_site())
        self._backend.sync_stream(self._core.raw)

    # -- lifetime ------------------------------------------------------------
    def lend(self) -> _LendScope[Stream[Lent]]:
        """``with s.lend() as ls:`` gives a ``Stream[Lent]`` that may enqueue work but
        may not close the stream; it expires at block exit. While lent the stream may
        not be closed."""
        site = caller_site()
        self._flag.begin_lend(site)
        lent: Stream[Lent] = Stream._adopt(self._core, self._flag.name, site)
        return _LendScope(self._flag, site, lent, lent._flag)

    def close(self: Stream[Owned]) -> None:
        """Close the stream. Refused while a transfer started on it is not completed
        (the error names them), while it is lent, and for a lent handle. Work already
        enqueued still runs to completion."""
        site = caller_site()
        self._check_open("close()", site)
        self._flag.check_writable("close()", site)
        pending = self._core.pending
        if pending:
            names = "; ".join(
                describe(kind, number, what, self.label) for number, (kind, what) in pending.items()
            )
            raise StreamClosedError(
                f"cannot close {self.label} at {where(site)}: {len(pending)} transfer(s) "
                f"started on it are not completed: {names}. Complete each with wait() "
                "(and rebind the array it returns), then close."
            )
        core = self._core
        core.tail = self._backend.record(core.raw)
        self._backend.close_stream(core.raw)
        core.closed_at = site

    # -- internals -----------------------------------------------------------
    def _check_open(self, op: str, site: tuple[str, int]) -> None:
        self._flag.check_alive(op)
        if self._core.closed_at is not None:
            raise StreamClosedError(
                f"cannot {op} on {self.label} at {where(site)}: the stream was closed at "
                f"{where(self._core.closed_at)}. Enqueue on an open stream (nx.stream())."
            )

    def _order(self, order: DeviceOrder, *, writes: bool) -> None:
        """Order this stream's next work after other streams' work on one array.

        Same-stream work needs nothing (stream order), nor does work this stream has
        already waited for. Otherwise this stream waits, on the device, for the last
        writer (reads and writes) and for the readers since (writes); a strict stream
        raises instead.
        """
        core = self._core
        synced = core.synced
        writer = order.writer
        if (
            writer is not None
            and writer is not core
            and synced.get(writer, -1) < order.writer_epoch
        ):
            if core.strict:
                self._refuse_cross_stream(order, writer, "written")
            core.wait_for(writer)
        core.epoch += 1
        if writes:
            for reader, epoch in order.readers.items():
                if reader is not core and synced.get(reader, -1) < epoch:
                    if core.strict:
                        self._refuse_cross_stream(order, reader, "read")
                    core.wait_for(reader)
            order.writer = core
            order.writer_epoch = core.epoch
            order.readers = {}
        else:  # the writer's own reads count too: a later writer elsewhere waits for them
            order.readers[core] = core.epoch

    def _check_strict(self, uses: Iterable[tuple[DeviceOrder, bool]]) -> None:
        """A strict stream refuses before it changes anything: check every use first."""
        core = self._core
        synced = core.synced
        for order, writes in uses:
            writer = order.writer
            if (
                writer is not None
                and writer is not core
                and synced.get(writer, -1) < order.writer_epoch
            ):
                self._refuse_cross_stream(order, writer, "written")
            if writes:
                for reader, epoch in order.readers.items():
                    if reader is not core and synced.get(reader, -1) < epoch:
                        self._refuse_cross_stream(order, reader, "read")

    def _refuse_cross_stream(self, order: DeviceOrder, other: _StreamCore, how: str) -> None:
        raise CrossStreamError(
            f"{self.label} is strict and {order.label} was last {how} on {other.label}: "
            "using it here needs a cross-stream wait. Do that work on one stream, or state the "
            f"dependency with `stream.wait_for(other)`, or create this stream without "
            "strict=True to let numbaxfer insert the event wait."
        )

    def _finish(self, kind: str, host: PinnedArray[Any, Any], move: MoveRecord) -> Transfer[Any]:
        try:
            event = self._backend.record(self._core.raw)
        except BaseException:
            self._backend.sync_stream(self._core.raw)
            host._flag.unmove()
            raise
        return Transfer._start(self, kind, host, event, move)


def stream(*, strict: bool = False) -> Stream[Owned]:
    """Create a CUDA stream, owned by the caller (``close()`` it when done).

    Work here that uses a device array last touched on another stream is ordered after
    that work by an event wait on the device. ``strict=True`` raises
    :class:`CrossStreamError` instead, to find cross-stream dependencies you did not
    mean to have.
    """
    label = f"Stream#{next(_numbers)}"
    return Stream._adopt(_StreamCore(get_backend(), label, strict), label)


def _check_same_backend(x: Any, op: str, param: str, backend: Backend) -> None:
    if x._backend is not backend:
        raise ValueError(
            f"{op}(): {param} {x.label} belongs to another backend or device "
            f"({x._backend.describe()}) than the stream ({backend.describe()}). Allocate it "
            "with the same backend as the stream."
        )


def _check_host(x: object, op: str, param: str, backend: Backend) -> None:
    if isinstance(x, PinnedArray):
        _check_same_backend(x, op, param, backend)
        return
    if isinstance(x, np.ndarray):
        raise PageableMemoryError(
            f"{op}(): {param} is an ordinary numpy array (pageable memory, shape {x.shape}, "
            f"{x.dtype}). An asynchronous copy needs page-locked memory; numbaxfer does not "
            "stage it silently. Pin it once with nx.pinned_copy(array) (one host copy), pin it "
            "in place for a block with `with nx.pinned(array) as h:`, or allocate with "
            "nx.pinned_array(shape, dtype) and fill it in a write() block."
        )
    if isinstance(x, DeviceArray):
        raise TypeError(
            f"{op}(): {param} must be host memory (nx.PinnedArray), got {x.label}; for a "
            "device-to-device copy use stream.copy(src, to=dst)."
        )
    raise TypeError(f"{op}(): {param} must be an nx.PinnedArray, not {type(x).__name__}")


def _check_device(x: object, op: str, param: str, backend: Backend) -> None:
    if isinstance(x, DeviceArray):
        _check_same_backend(x, op, param, backend)
        return
    if isinstance(x, (PinnedArray, np.ndarray)):
        raise TypeError(
            f"{op}(): {param} must be an nx.DeviceArray, got host memory "
            f"({type(x).__name__}). Allocate one with nx.device_array(shape, dtype)."
        )
    raise TypeError(f"{op}(): {param} must be an nx.DeviceArray, not {type(x).__name__}")


def _check_match(a: Any, b: Any, op: str) -> None:
    # One side is always a PinnedArray, the other a DeviceArray or PinnedArray.
    sa, da = (a._buf.shape, a._buf.dtype) if isinstance(a, PinnedArray) else (a._shape, a._dtype)
    sb, db = (b._buf.shape, b._buf.dtype) if isinstance(b, PinnedArray) else (b._shape, b._dtype)
    if sa != sb or (da is not db and da != db):
        raise ValueError(
            f"{op}(): shape or dtype mismatch: {a.label} is {a.dtype}{list(a.shape)} but "
            f"{b.label} is {b.dtype}{list(b.shape)}. Copies are element-for-element; "
            "allocate matching arrays."
        )
