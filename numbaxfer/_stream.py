"""Streams: ``Stream[Cap]``, where copies and kernels are enqueued."""

from __future__ import annotations

import inspect
import itertools
import logging
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final, Generic, TypeVar, cast, final, overload

import numpy as np
from numpy.typing import NDArray

from ._backend import Backend, on_device
from ._checks import check_device, check_host, check_match, check_same_backend, refuse_device
from ._device import DeviceArray
from ._errors import (
    BorrowError,
    DeviceMismatchError,
    OwnershipError,
    StreamClosedError,
    UseAfterTransferError,
    where,
)
from ._host import PinnedArray
from ._mapped import MappedArray, Mapping
from ._order import DeviceOrder, StreamCore
from ._ownership import (
    STATE_LOCK,
    BorrowFlag,
    Consumed,
    LendScope,
    Lent,
    MoveRecord,
    Owned,
    Unique,
    caller_site,
)
from ._staging import staging_area
from ._trace import LOG, nvtx_enabled, nvtx_range
from ._transfer import Transfer
from ._util import describe_transfer

__all__ = ["Kernel", "Stream", "kernel", "stream"]

Cap = TypeVar("Cap", bound=Lent, covariant=True)
DT = TypeVar("DT", bound=np.generic)
_numbers = itertools.count(1)
_R = TypeVar("_R")

READ: Final = 1
WRITE: Final = 2


@final
class Stream(Unique, Generic[Cap]):
    """A CUDA stream with an ownership capability.

    Work enqueued on one stream runs in order. ``Stream[Owned]`` (from
    :func:`stream`) may enqueue and close; ``Stream[Lent]`` (from ``lend()``) may
    enqueue but not close. Every method checks its arguments and the ownership rules
    before anything is enqueued, enqueues, then commits its bookkeeping; a call that
    raises has changed nothing (if it failed after the driver may have accepted work,
    it first waits for that work on the host, then gives every argument back).
    Thread-safe: each operation is atomic with respect to other threads' close, free,
    move and map.
    """

    __slots__ = ("_backend", "_core", "_flag")

    _backend: Backend
    _core: StreamCore
    _flag: BorrowFlag

    def __init__(self) -> None:
        raise TypeError("Streams are created with nx.stream().")

    @classmethod
    def _adopt(
        cls,
        core: StreamCore,
        label: str,
        lent_from: Stream[Any] | None = None,
        lent_at: tuple[str, int] | None = None,
    ) -> Stream[Any]:
        self = object.__new__(cls)
        self._backend = core.backend
        self._core = core
        root = None if lent_from is None else lent_from._flag
        self._flag = BorrowFlag(label, lent_at, root)
        return self

    @property
    def label(self) -> str:
        return self._core.label

    @property
    def closed(self) -> bool:
        return self._core.closed_at is not None

    @property
    def device(self) -> int:
        """The ordinal of the GPU this stream runs on (``nx.stream(device=...)``)."""
        return self._backend.device

    def __repr__(self) -> str:
        state = "closed" if self.closed else self._flag.state()
        return f"<{self._flag.label}: {state}>"

    def __cuda_stream__(self) -> tuple[int, int]:
        """The CUDA stream protocol (version 0, the driver handle): CuPy, PyTorch and
        cuda.core can enqueue on this stream. Work they enqueue is invisible to
        numbaxfer's ordering: order it with their own events, or adopt their arrays."""
        self._flag.check_alive("__cuda_stream__")
        handle = self._backend.stream_handle(self._core.raw)
        if handle is None:
            raise TypeError(
                f"{self.label} has no driver stream to share: {self._backend.describe()}"
            )
        return (0, handle)

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
        with STATE_LOCK:
            self._check_open("upload()", site)
            backend = self._backend
            # the usual case, checked inline (the same checks, with their messages, else;
            # one backend object per device, so the identities also check the device)
            if not (
                type(src) is PinnedArray
                and type(to) is DeviceArray
                and src._backend is backend
                and to._backend is backend
                and len(to._shape) == 1
                and src._buf.shape == to._shape
                and src._buf.dtype is to._dtype
            ):
                check_host(src, "upload", "src", backend)
                check_device(to, "upload", "to", backend, site, self.label)
                check_match(src, to, "upload")
            to._flag.check_writable("upload() into", site)
            src._flag.check_writable("upload", site)
            raw = self._core.raw
            dst, mem = to._buf, src._mem

            def work() -> Any:
                backend.copy_htod(raw, dst, mem)
                return backend.record(raw)

            event = self._enqueue(((to._order, True),), work)
            return self._hand_over("upload", src, event, site)

    def upload_staged(self, src: NDArray[DT], *, to: DeviceArray[Owned, DT]) -> Transfer[None]:
        """Upload ordinary (pageable) numpy data through a staging buffer: ONE EXTRA HOST
        COPY (``src`` into pinned memory numbaxfer owns), then an asynchronous copy.

        For small constant inputs (``cuda.to_device(a)`` in numba). ``src`` is copied
        before this returns and never touched again: reuse it at once; nothing moves.
        The staging buffer is reused once the copy has finished. The returned transfer
        moves nothing; completing it is optional (like ``copy()``). For large or
        repeated uploads use pinned memory and ``upload()``, which copies nothing on the
        host.
        """
        site = caller_site()
        with STATE_LOCK:
            self._check_open("upload_staged()", site)
            self._refuse_in_capture("upload_staged()", site, "its staging buffer is reused")
            given = cast(object, src)  # the annotation says numpy; check what came
            if isinstance(given, PinnedArray):
                raise TypeError(
                    f"upload_staged() at {where(site)}: {given.label} is already pinned: use "
                    "upload(src, to=dev), which has no extra host copy."
                )
            if not isinstance(src, np.ndarray):
                raise TypeError(f"upload_staged() takes a numpy array, not {type(src).__name__}")
            check_device(to, "upload_staged", "to", self._backend, site, self.label)
            if src.shape != to.shape or src.dtype != to.dtype:
                raise ValueError(
                    f"upload_staged(): shape or dtype mismatch: src is {src.dtype}"
                    f"{list(src.shape)} but {to.label} is {to.dtype}{list(to.shape)}."
                )
            to._flag.check_writable("upload_staged() into", site)
            area = staging_area(self._backend)
            raw_buf = area.take(src.nbytes)
            staged = raw_buf[: src.nbytes].view(src.dtype).reshape(src.shape)
            np.copyto(staged, src)  # the one host copy
            backend, raw, dst = self._backend, self._core.raw, to._buf
            mem = backend.host_memory(staged)

            def work() -> Any:
                backend.copy_htod(raw, dst, mem)
                return backend.record(raw)

            try:
                event = self._enqueue(((to._order, True),), work)
            except BaseException:
                area.give_back(raw_buf)  # the stream was settled: nothing reads it
                raise
            try:
                area.busy(backend.record(raw), raw_buf)
            except BaseException:
                self._core.settle()  # the copy has run: the buffer is free again
                area.give_back(raw_buf)
                raise
            return Transfer._start(self._core, "staged upload", None, event, None, to.label)

    @overload
    def download(
        self, src: DeviceArray[Lent, DT], *, into: Consumed[PinnedArray[Owned, DT]]
    ) -> Transfer[PinnedArray[Owned, DT]]: ...
    @overload
    def download(
        self, src: DeviceArray[Lent, DT], *, into: Consumed[Transfer[PinnedArray[Owned, DT]]]
    ) -> Transfer[PinnedArray[Owned, DT]]: ...
    def download(self, src: DeviceArray[Lent, DT], *, into: Any) -> Any:
        """Copy device array ``src`` into pinned ``into``, asynchronously on this stream.

        ``into`` MOVES into the transfer: reading it before ``into = transfer.wait()``
        would see stale data, so every use raises until then. The copy runs after the
        work already enqueued on this stream (and, if ``src`` was written on another
        stream, after that work too, by an event wait on the device).

        Chaining: ``into`` may also be a pending transfer that holds the destination
        buffer (an upload of it): that transfer MOVES into this one, which takes the
        buffer over without a host wait. The download runs after the upload (stream
        order, or an event wait on the device when the upload ran on another stream);
        this transfer's ``wait()`` gives the buffer back.
        """
        site = caller_site()
        with STATE_LOCK:
            self._check_open("download()", site)
            backend = self._backend
            chained: Transfer[Any] | None = None
            if (  # the usual case, checked inline (the same checks, with their messages, else)
                type(into) is PinnedArray
                and type(src) is DeviceArray
                and src._backend is backend
                and into._backend is backend
                and len(src._shape) == 1
                and into._buf.shape == src._shape
                and into._buf.dtype is src._dtype
            ):
                pass
            else:
                check_device(src, "download", "src", backend, site, self.label)
                if isinstance(into, Transfer):
                    chained = into
                    into = self._check_chain(chained, site)
                else:
                    check_host(into, "download", "into", backend)
                check_match(src, into, "download")
            src._flag.check_read("download() from")
            if chained is None:
                into._flag.check_writable("download", site)
            raw = self._core.raw
            mem, buf = into._mem, src._buf
            after = None if chained is None or chained._core is self._core else chained._event

            def work() -> Any:
                if after is not None:  # the upload ran on another stream: wait on the device
                    backend.wait_event(raw, after)
                backend.copy_dtoh(raw, mem, buf)
                return backend.record(raw)

            event = self._enqueue(((src._order, False),), work)
            if chained is None:
                return self._hand_over("download", into, event, site)
            return self._take_chain(chained, event, site)

    def _check_chain(self, upload: Transfer[Any], site: tuple[str, int]) -> PinnedArray[Any, Any]:
        """The buffer a chained download would take over from ``upload`` (checks only)."""
        handle = upload._handle
        if handle is None or upload._state != 0:
            raise UseAfterTransferError(
                f"download(into=...) at {where(site)}: {upload.label} is not pending (completed "
                "or handed on); chain only onto a transfer that still holds its buffer."
            )
        if upload._capture is not self._core.capture:
            raise OwnershipError(
                f"download(into=...) at {where(site)}: {upload.label} and this download are "
                "not in the same capture (one is recorded by nx.capture, the other is not); "
                "chain transfers inside one capture block, or outside any."
            )
        if upload._core.backend is not self._backend:
            raise ValueError(
                f"download(into=...) at {where(site)}: {upload.label} belongs to another "
                "backend or device than this stream."
            )
        return handle

    def _take_chain(self, upload: Transfer[Any], event: Any, site: tuple[str, int]) -> Any:
        """Commit a chained download: a new transfer holds the buffer, then the upload is
        retired. If this is interrupted the download is abandoned and the stream settled
        (its copy has run), so the upload, still pending, gives the buffer back."""
        handle = upload._handle
        assert handle is not None
        move = MoveRecord("download", self.label, site)
        down: Transfer[Any] | None = None
        try:
            down = Transfer._start(self._core, "download", handle, event, move)
            upload._hand_on(site, down)
            handle._flag._moved = move
            return down
        except BaseException:
            if down is not None and upload._handle is not None:
                down._abandon()
            self._core.settle()
            raise

    def copy(self, src: DeviceArray[Lent, DT], *, to: DeviceArray[Owned, DT]) -> Transfer[None]:
        """Copy device array ``src`` into device array ``to`` on this stream.

        Moves nothing: both arrays stay usable by later work (stream-ordered). The
        returned transfer's ``wait()`` blocks until the copy has finished and returns
        None; completing it is optional.

        Between GPUs (``src`` and ``to`` on different devices) this stream must be on
        one of the two (the source's or the destination's). The copy goes through peer
        access where the two GPUs have it, otherwise it is staged through pinned host
        memory numbaxfer owns (device to host to device, on this stream); the returned
        transfer's ``route`` says which (``"peer"``, ``"staged"``; ``"local"`` within
        one device). Work on other streams (of either device) that touched the arrays
        is ordered before the copy by event waits on the device, never a host sync.
        """
        site = caller_site()
        with STATE_LOCK:
            self._check_open("copy()", site)
            if (
                isinstance(src, DeviceArray)
                and isinstance(to, DeviceArray)
                and (src._backend is not to._backend or src._backend is not self._backend)
            ):
                return self._copy_across(src, to, site)
            check_device(src, "copy", "src", self._backend)
            check_device(to, "copy", "to", self._backend)
            check_match(src, to, "copy")
            src._flag.check_read("copy() from")
            to._flag.check_writable("copy() into", site)
            backend, raw = self._backend, self._core.raw
            dst_buf, src_buf = to._buf, src._buf

            def work() -> Any:
                backend.copy_dtod(raw, dst_buf, src_buf)
                return backend.record(raw)

            event = self._enqueue(((src._order, False), (to._order, True)), work)
            what = f"{src.label} -> {to.label}"
            return Transfer._start(self._core, "copy", None, event, None, what)

    def _copy_across(
        self, src: DeviceArray[Any, Any], to: DeviceArray[Any, Any], site: tuple[str, int]
    ) -> Transfer[None]:
        """``copy()`` where the arrays, or the stream, are on different devices."""
        backend = self._backend
        for param, arr in (("src", src), ("to", to)):
            if arr._backend.family is not backend.family:  # another backend: refused
                check_same_backend(arr, "copy", param, backend, site, self.label)
        if src._backend is to._backend:  # both on one device, the stream elsewhere
            refuse_device(
                src,
                "copy",
                "src",
                backend,
                f"Both arrays are on device {src.device}: enqueue the copy on a stream of "
                f"that device (nx.stream(device={src.device})).",
                site,
                self.label,
            )
        if backend is not src._backend and backend is not to._backend:
            refuse_device(
                to,
                "copy",
                "to",
                backend,
                f"A copy from device {src.device} to device {to.device} runs on a stream of "
                f"either (nx.stream(device={src.device}) or nx.stream(device={to.device})).",
                site,
                self.label,
            )
        for param, arr in (("src", src), ("to", to)):
            if arr._order.fences is not None:
                raise DeviceMismatchError(
                    f"copy() at {where(site)}: {param} {arr.label} is the device view of "
                    "mapped host memory, which numbaxfer copies within its own device only. "
                    f"Copy it on device {arr.device} into a device array there first."
                )
        check_match(src, to, "copy")
        src._flag.check_read("copy() from")
        to._flag.check_writable("copy() into", site)
        uses = ((src._order, False), (to._order, True))
        self._core.check_strict(uses)  # before asking for (and enabling) peer access
        other = to._backend if backend is src._backend else src._backend
        raw, dst_buf, src_buf = self._core.raw, to._buf, src._buf
        what = f"{src.label} (device {src.device}) -> {to.label} (device {to.device})"
        if backend.peer_route(other):
            dst_backend, src_backend = to._backend, src._backend

            def peer() -> Any:
                backend.copy_peer(raw, dst_buf, dst_backend, src_buf, src_backend)
                return backend.record(raw)

            event = self._enqueue(uses, peer)
            return Transfer._start(self._core, "peer copy", None, event, None, what)
        # No peer access: through a pinned staging buffer, both copies on this stream.
        area = staging_area(backend)
        raw_buf = area.take(src.nbytes)
        staged = raw_buf[: src.nbytes].view(src.dtype).reshape(src.shape)
        mem = backend.host_memory(staged)

        def staged_copy() -> Any:
            backend.copy_dtoh(raw, mem, src_buf)
            backend.copy_htod(raw, dst_buf, mem)
            return backend.record(raw)

        try:
            event = self._enqueue(uses, staged_copy)
        except BaseException:
            area.give_back(raw_buf)  # the stream was settled: nothing uses it
            raise
        try:
            area.busy(backend.record(raw), raw_buf)
        except BaseException:
            self._core.settle()  # the copies have run: the buffer is free again
            area.give_back(raw_buf)
            raise
        return Transfer._start(self._core, "staged copy", None, event, None, what)

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
        is ordered before the launch by an event wait on the device (rule 4). If numba
        refuses the launch (say, a wrong argument count), nothing is recorded.
        """
        site = caller_site()
        with STATE_LOCK:
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
            backend = self._backend
            for i, arg in enumerate(args):
                if isinstance(arg, DeviceArray):
                    if arg._backend is not backend:
                        check_same_backend(
                            arg, "launch", f"argument {i}", backend, site, self.label
                        )
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
                            f"{kernel.params[i]!r} got a device array but is declared neither "
                            "in reads nor in writes. Declare it: "
                            "nx.kernel(reads=[...], writes=[...])."
                        )
                    uses.append((arg._order, intent == WRITE))
                    raw_args.append(arg._buf)  # the backend's launch converts it
                # Host memory is refused here for untyped callers; statically `arg` can't be one.
                elif isinstance(cast(object, arg), (PinnedArray, np.ndarray)):
                    raise TypeError(
                        f"launch() argument {i} at {where(site)} is host memory "
                        f"({type(arg).__name__}); numba would copy it synchronously. Upload it "
                        "into an nx.device_array with stream.upload() and pass that."
                    )
                else:
                    raw_args.append(arg)
            raw = self._core.raw

            def work() -> None:
                backend.launch(raw, dispatcher, griddim, blockdim, raw_args)

            self._enqueue(uses, work)

    def wait_for(self, other: Stream[Any]) -> None:
        """Make work enqueued here from now on wait, on the device (an event wait, no
        host sync), for all work enqueued on ``other`` so far.

        numbaxfer inserts these waits itself where device arrays need them; call this to
        state a dependency explicitly, e.g. before using on a strict stream an array that
        ``other`` wrote.
        """
        site = caller_site()
        if not isinstance(other, Stream):
            raise TypeError(
                f"wait_for() at {where(site)} takes an nx.Stream, not {type(other).__name__}"
            )
        with STATE_LOCK:
            self._check_open("wait_for()", site)
            capture, theirs = self._core.capture, other._core.capture
            if capture is not None and theirs is not capture:
                raise OwnershipError(
                    f"wait_for() at {where(site)}: {self.label} is capturing into "
                    f"{capture.label} but {other.label} is not part of that capture; a graph "
                    "cannot wait for work outside it. Order it before the capture block, or "
                    "capture both streams (nx.capture(s1, s2))."
                )
            if other._core is not self._core:
                self._core.wait_for(other._core)

    def map(self, host: Consumed[MappedArray[Owned, DT]]) -> Mapping[DT]:
        """Hand mapped host memory to kernels, without a copy.

        ``host`` MOVES into the returned :class:`Mapping`; launch kernels with
        ``mapping.device`` (on this or any stream); ``host = mapping.wait()`` waits for
        exactly the work that used it and gives the array back.
        """
        site = caller_site()
        if not isinstance(host, MappedArray):
            raise TypeError(
                f"map() takes an nx.MappedArray (nx.mapped_array(...)), not "
                f"{type(host).__name__}; other host memory must be copied with upload()."
            )
        with STATE_LOCK:
            self._check_open("map()", site)
            self._refuse_in_capture("map()", site, "a mapping's end must be known exactly")
            check_same_backend(host, "map", "host", self._backend)
            move = MoveRecord("map", self.label, site)
            host._flag.move(move)
            try:
                return Mapping._create(host, move)
            except BaseException:
                host._flag.unmove()
                raise

    # -- host synchronization ------------------------------------------------
    def synchronize(self) -> None:
        """Block the host until all work enqueued on this stream has finished.

        Explicit and stream-wide; transfers still have to be completed with ``wait()``
        (which then returns at once) to get their arrays back.
        """
        site = caller_site()
        with STATE_LOCK:
            self._check_open("synchronize()", site)
            self._refuse_in_capture("synchronize()", site, "nothing enqueued there runs yet")
        self._backend.sync_stream(self._core.raw)

    # -- lifetime ------------------------------------------------------------
    def lend(self) -> LendScope[Stream[Lent]]:
        """``with s.lend() as ls:`` gives a ``Stream[Lent]`` that may enqueue work but
        may not close the stream; it expires at block exit. While lent the stream may
        not be closed."""
        site = caller_site()
        self._flag.check_read("lend()")
        lent: Stream[Lent] = Stream._adopt(self._core, self._flag.name, self, site)
        return LendScope(self._flag, site, lent, lent._flag)

    def close(self: Stream[Owned]) -> None:
        """Close the stream. Refused while a transfer started on it is not completed
        (the error names them), while it is lent, and for a lent handle. Work already
        enqueued still runs to completion."""
        site = caller_site()
        with STATE_LOCK:
            self._check_open("close()", site)
            self._refuse_in_capture("close()", site, "the capture records on it")
            if self._core.foreign:
                raise BorrowError(
                    f"cannot close {self.label} at {where(site)}: it is a foreign stream "
                    "adopted with nx.adopt_stream(); numbaxfer never closes it. Complete its "
                    "transfers with wait(), then let its owner (the library that made it) "
                    "destroy it."
                )
            self._flag.check_writable("close()", site)
            core = self._core
            pending = core.pending
            if pending:
                names = "; ".join(
                    describe_transfer(kind, number, what, self.label)
                    for number, (kind, what) in pending.items()
                )
                raise StreamClosedError(
                    f"cannot close {self.label} at {where(site)}: {len(pending)} transfer(s) "
                    f"started on it are not completed: {names}. Complete each with wait() "
                    "(and rebind the array it returns), then close."
                )
            tail = self._backend.record(core.raw)
            try:
                self._backend.close_stream(core.raw)
            except BaseException:  # refused: the stream stays open, as it was
                self._backend.release_event(tail)
                raise
            core.tail = tail
            core.closed_at = site

    # -- internals -----------------------------------------------------------
    def _check_open(self, op: str, site: tuple[str, int]) -> None:
        self._flag.check_alive(op)
        self._core.check_open(op, site)

    def _refuse_in_capture(self, op: str, site: tuple[str, int], why: str) -> None:
        capture = self._core.capture
        if capture is not None:
            raise OwnershipError(
                f"cannot {op} on {self.label} at {where(site)}: it is capturing into "
                f"{capture.label} ({why}). Do this outside the `with nx.capture(...)` block."
            )

    def _enqueue(self, uses: Sequence[tuple[DeviceOrder, bool]], work: Callable[[], _R]) -> _R:
        """Order, enqueue, commit: the cross-stream waits ``uses`` need (a strict
        stream raises before anything), then ``work`` (the backend calls), then the
        bookkeeping. If anything raises after the first backend call, the stream is
        settled (host-synchronized) so that nothing it may have enqueued still runs,
        and no bookkeeping changes."""
        core = self._core
        capture = core.capture
        if capture is not None:  # recorded, not run: plan against the capture's orders
            shadow = capture.shadow_uses(uses)
            result = self._enqueue_now(core, shadow, core.plan(shadow), work)
            capture.note(uses)
            return result
        waits = core.plan(uses)
        if waits and LOG.isEnabledFor(logging.DEBUG):
            arrays = ", ".join(order.label for order, _ in uses)
            LOG.debug("%s: cross-stream use of %s needs event waits", core.label, arrays)
        if nvtx_enabled():
            with nvtx_range(f"numbaxfer {core.label}: {', '.join(o.label for o, _ in uses)}"):
                return self._enqueue_now(core, uses, waits, work)
        return self._enqueue_now(core, uses, waits, work)

    def _enqueue_now(
        self,
        core: StreamCore,
        uses: Sequence[tuple[DeviceOrder, bool]],
        waits: list[StreamCore],
        work: Callable[[], _R],
    ) -> _R:
        fenced = [order for order, _ in uses if order.fences is not None] if uses else ()
        try:
            for other in waits:
                core.wait_for(other)
            result = work()
            fences = [core.backend.record(core.raw) for _ in fenced] if fenced else ()
        except BaseException:
            core.settle()
            raise
        core.commit_uses(uses)
        for order, event in zip(fenced, fences, strict=True):
            assert order.fences is not None
            old = order.fences.get(core)
            order.fences[core] = event
            if old is not None:
                core.backend.release_event(old)
        return result

    def _hand_over(
        self, kind: str, host: PinnedArray[Any, Any], event: Any, site: tuple[str, int]
    ) -> Transfer[Any]:
        """Commit a copy of ``host``: it moves into the new transfer."""
        move = MoveRecord(kind, self.label, site)
        transfer: Transfer[Any] | None = None
        try:
            host._flag.move(move)
            transfer = Transfer._start(self._core, kind, host, event, move)
            return transfer
        except BaseException:
            if transfer is not None:
                transfer._abandon()
            self._core.settle()
            host._flag.unmove()
            raise


def stream(*, strict: bool = False, device: int | None = None) -> Stream[Owned]:
    """Create a CUDA stream, owned by the caller (``close()`` it when done).

    Work here that uses a device array last touched on another stream (of this or
    another device) is ordered after that work by an event wait on the device.
    ``strict=True`` raises :class:`CrossStreamError` instead, to find cross-stream
    dependencies you did not mean to have. ``device``: the GPU's ordinal (None: the
    current device); kernels launched here take arrays of that device only.
    """
    backend = on_device(device, "nx.stream()", caller_site())
    label = f"Stream#{next(_numbers)}"
    if backend.device:
        label += f"@dev{backend.device}"
    return Stream._adopt(StreamCore(backend, label, bool(strict)), label)


@final
class Kernel:
    """A ``numba.cuda.jit`` dispatcher plus, for each parameter, whether the kernel
    reads it, writes it (a write may also read), or neither (scalars).

    Launch with ``stream.launch(k, grid, block, *args)`` or, numba style,
    ``k[grid, block, stream](*args)``: the stream must be a numbaxfer stream. Device
    arrays passed for ``reads`` parameters may be ``Lent``; ``writes`` parameters need
    an ``Owned`` array. Passing a device array for an undeclared parameter is refused.
    """

    __slots__ = ("dispatcher", "intents", "name", "params")

    dispatcher: Any
    name: str
    params: tuple[str, ...]
    intents: tuple[int, ...]

    def __init__(self) -> None:
        raise TypeError("Kernel is not created directly: use @nx.kernel(reads=..., writes=...).")

    @classmethod
    def _create(cls, dispatcher: Any, reads: tuple[str, ...], writes: tuple[str, ...]) -> Kernel:
        py_func = getattr(dispatcher, "py_func", None) or getattr(dispatcher, "fn", None)
        if py_func is None:
            raise TypeError(
                f"nx.kernel() wraps a numba.cuda.jit kernel, got {type(dispatcher).__name__}"
            )
        self = object.__new__(cls)
        self.dispatcher = dispatcher
        self.name = py_func.__name__
        self.params = tuple(inspect.signature(py_func).parameters)
        unknown = [p for p in reads + writes if p not in self.params]
        if unknown:
            raise ValueError(
                f"nx.kernel({self.name}): {', '.join(unknown)} not among its parameters "
                f"({', '.join(self.params)})"
            )
        both = set(reads) & set(writes)
        if both:
            raise ValueError(
                f"nx.kernel({self.name}): {', '.join(sorted(both))} declared in both reads "
                "and writes; a written parameter may also be read: list it in writes only."
            )
        self.intents = tuple(
            WRITE if p in writes else READ if p in reads else 0 for p in self.params
        )
        return self

    def __repr__(self) -> str:
        rw = {READ: "reads", WRITE: "writes"}
        parts = [f"{p}: {rw[i]}" for p, i in zip(self.params, self.intents, strict=True) if i]
        return f"<nx.kernel {self.name}({', '.join(parts)})>"

    def __getitem__(self, config: tuple[Any, ...]) -> Callable[..., None]:
        """``k[grid, block, stream](*args)``: launch on a numbaxfer stream."""
        if len(config) != 3 or not isinstance(config[2], Stream):
            raise TypeError(
                f"{self.name}[grid, block, stream]: the third item must be a numbaxfer "
                "stream (nx.stream()); numbaxfer launches only on explicit streams."
            )
        griddim, blockdim, stream = config
        launch_on: Stream[Any] = stream

        def launch(*args: Any) -> None:
            launch_on.launch(self, griddim, blockdim, *args)

        return launch


def kernel(*, reads: Iterable[str] = (), writes: Iterable[str] = ()) -> Callable[[Any], Kernel]:
    """Declare a kernel's intents::

    @nx.kernel(reads=["src"], writes=["dst"])
    @cuda.jit
    def affine(src, dst): ...

    s.launch(affine, grid, block, src_dev, dst_dev)   # or affine[grid, block, s](...)
    """
    names = {}
    for what, given in (("reads", reads), ("writes", writes)):
        if isinstance(given, (str, bytes)):
            raise TypeError(
                f"nx.kernel({what}={given!r}): pass a list of parameter names, "
                f"{what}=[{given!r}]; a string would be read as one name per letter."
            )
        names[what] = tuple(given)
        bad = [n for n in names[what] if not isinstance(n, str)]
        if bad:
            raise TypeError(f"nx.kernel({what}=...): parameter names are strings, got {bad!r}")

    def wrap(dispatcher: Any) -> Kernel:
        return Kernel._create(dispatcher, names["reads"], names["writes"])

    return wrap
