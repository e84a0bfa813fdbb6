"""The lazy CPU emulator: numba's simulator with CUDA's asynchrony put back.

Each stream is a queue. Copies, kernel launches (run by numba's CUDA simulator) and
cross-stream event waits are enqueued and execute only when something forces them: an
event or stream synchronize, or a ``query`` that the schedule decides to answer. A
host-to-device copy reads host memory when it executes, not when it is enqueued; a
device-to-host copy writes its destination when it executes. So a host access that
races a copy sees exactly what it could see on a GPU, deterministically.

Kernels run from their Python source on numba's simulator machinery
(``_simkernel``), whichever mode ``numba.cuda`` was imported in: the emulator needs no
``NUMBA_ENABLE_CUDASIM``, and works beside a GPU-mode numba.

What it models: stream order; events (record, query, synchronize, stream-wait) with
CUDA's capture semantics (an event covers the work enqueued on its stream before the
record); the time at which a copy touches host memory; the interleaving of streams.
What it does not: concurrency inside a kernel beyond what the simulator does, timing,
copy engines, device memory limits, partial copies (a copy runs whole, at one
instant), the legacy default stream's implicit synchronization for the handles (the
raw facade models it). ``docs/emulator.md`` says more.

Schedules (``NUMBAXFER_EMULATOR_SCHEDULE`` or ``EmulatorBackend(schedule=...)``):

* ``lazy`` (default): nothing runs until forced. A ``query`` of unfinished work answers
  "not yet" once; the next ``query`` of the same event runs the work it captures.
* ``eager``: every operation runs as it is enqueued (numba's simulator, in effect).
* ``random:SEED``: at every backend call, before and after it, a seeded random number of
  operations run, from streams chosen at random, respecting stream order and
  cross-stream event waits. A ``query`` first lets random work run, answers true only if
  the work is done, and after a few "not yet"s runs it. ``random`` alone draws a seed
  (``describe()`` names it). The same seed and the same calls give the same interleaving.
"""

from __future__ import annotations

import os
import random
import threading
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

import numpy as np
from numpy.typing import NDArray

from .._guard import alloc_pages, guard_enabled, lifted
from ._record import GraphRecorder, RecordedCapture, RecordedGraph
from ._simkernel import run_kernel, simulator

__all__ = ["EmulatorBackend", "RawEmulatedCuda", "Schedule"]

#: Environment variable that picks the schedule of ``EmulatorBackend()``.
SCHEDULE_ENV: Final = "NUMBAXFER_EMULATOR_SCHEDULE"
#: Environment variable that sets how many devices ``EmulatorBackend()`` models.
DEVICES_ENV: Final = "NUMBAXFER_EMULATOR_DEVICES"
#: Devices modelled when neither ``devices=`` nor ``NUMBAXFER_EMULATOR_DEVICES`` says.
DEFAULT_DEVICES: Final = 2
#: How many "not yet" answers a query of the same event gets before it runs the work.
_LAZY_NOT_YET: Final = 1
_RANDOM_NOT_YET: Final = 3
#: A random schedule's eagerness (the chance to run one more operation at a call) is
#: drawn from these, once per backend: some runs are nearly lazy, some nearly eager.
_EAGERNESS: Final = (0.1, 0.3, 0.5, 0.7, 0.9)


@dataclass(frozen=True)
class Schedule:
    """When enqueued work runs: ``lazy``, ``eager`` or ``random`` with a seed."""

    kind: str
    seed: int | None = None

    @classmethod
    def parse(cls, text: str) -> Schedule:
        """``lazy``, ``eager``, ``random`` (a fresh seed) or ``random:SEED``."""
        name, _, arg = text.strip().partition(":")
        name = name.strip().lower()
        if name in ("lazy", "eager") and not arg:
            return cls(name)
        if name == "random":
            if not arg.strip():
                return cls("random", random.SystemRandom().randrange(2**32))
            try:
                return cls("random", int(arg.strip(), 0))
            except ValueError:
                pass
        raise ValueError(
            f"{SCHEDULE_ENV}={text!r} is not an emulator schedule; use lazy (the default), "
            "eager, random or random:SEED (an integer)."
        )

    @classmethod
    def random(cls, seed: int) -> Schedule:
        return cls("random", seed)

    def __str__(self) -> str:
        return self.kind if self.seed is None else f"{self.kind}:{self.seed}"


class _Stream:
    __slots__ = ("closed", "device", "label", "ops")

    def __init__(self, label: str, device: int = 0) -> None:
        self.label = label
        self.device = device
        self.ops: deque[_Op] = deque()  # enqueued, not yet run; seq increasing
        self.closed = False

    def __repr__(self) -> str:
        return f"<{self.label}: {len(self.ops)} pending>"


class _Event:
    __slots__ = ("queried", "seq", "stream")

    def __init__(self, stream: _Stream, seq: int) -> None:
        self.stream = stream
        self.seq = seq  # captures the stream's ops with seq < self.seq
        self.queried = 0


class _Op:
    __slots__ = ("event", "run", "seq", "what")

    def __init__(
        self, seq: int, what: str, run: Callable[[], None] | None, event: _Event | None
    ) -> None:
        self.seq = seq
        self.what = what
        self.run = run  # None for a stream-wait
        self.event = event  # the event a stream-wait waits for


class _Shared:
    """What the device objects of one emulator share: the operation counter, the
    stream count, the device objects, and whether the devices have peer access."""

    __slots__ = ("devices", "peer", "seq", "streams")

    def __init__(self, peer: bool) -> None:
        self.seq = 0
        self.streams = 0
        self.peer = peer
        self.devices: dict[int, EmulatorBackend] = {}


def _device_setting(devices: int | None) -> int:
    if devices is None:
        text = os.environ.get(DEVICES_ENV, "").strip()
        if not text:
            return DEFAULT_DEVICES
        try:
            devices = int(text)
        except ValueError:
            devices = 0
        if devices < 1:
            raise ValueError(
                f"{DEVICES_ENV}={text!r} is not a device count; set it to an int >= 1 "
                f"(default {DEFAULT_DEVICES})."
            )
    if isinstance(devices, bool) or not isinstance(devices, int) or devices < 1:
        raise ValueError(f"the emulator models an int >= 1 of devices, not devices={devices!r}")
    return devices


class EmulatorBackend:
    """CPU backend whose copies and kernels run only when forced (see module docstring).

    ``schedule``: a :class:`Schedule`, its text form (``"random:7"``), or None for
    ``$NUMBAXFER_EMULATOR_SCHEDULE`` (default ``lazy``). ``trace=True`` records every
    executed operation in :attr:`trace` as ``"<stream label>#<seq> <what>"``.

    Devices: ``devices`` (None: ``$NUMBAXFER_EMULATOR_DEVICES``, default 2) devices on
    one host. This object is device 0; ``on_device(n)`` gives device ``n``'s, which
    shares the schedule, the streams' queues and the events (a stream of one device may
    wait for an event of another, lazily like everything else) but allocates its own
    buffers. ``peer=False``: the devices have no peer access (copies between them are
    staged through pinned host memory by numbaxfer).
    """

    name = "emulator"
    synchronous = False
    simulated = True

    def __init__(
        self,
        schedule: Schedule | str | None = None,
        *,
        trace: bool = False,
        devices: int | None = None,
        peer: bool = True,
    ) -> None:
        self._count = _device_setting(devices)
        self._shared = _Shared(bool(peer))
        self.device = 0
        self.family: object = self._shared
        self._shared.devices[0] = self
        self._cuda = simulator()  # its device arrays; numba.cuda may be in GPU mode
        if schedule is None:
            schedule = os.environ.get(SCHEDULE_ENV, "") or "lazy"
        self.schedule = schedule if isinstance(schedule, Schedule) else Schedule.parse(schedule)
        self._rng = random.Random(self.schedule.seed)
        random_mode = self.schedule.kind == "random"
        self._eagerness = self._rng.choice(_EAGERNESS) if random_mode else 0.0
        self._not_yet = _RANDOM_NOT_YET if random_mode else _LAZY_NOT_YET
        self._lock = threading.RLock()
        self._busy: list[_Stream] = []  # streams with pending ops, in creation order
        self.trace: list[str] | None = [] if trace else None
        self._graphs = GraphRecorder()

    # The counters live in the state the devices share.
    @property
    def _seq(self) -> int:
        return self._shared.seq

    @_seq.setter
    def _seq(self, value: int) -> None:
        self._shared.seq = value

    def describe(self) -> str:
        on = "" if self.device == 0 else f" device {self.device} of {self._count}"
        if self.schedule.kind == "lazy":
            return f"numbaxfer emulator{on} (lazy: copies run only when forced)"
        if self.schedule.kind == "eager":
            return f"numbaxfer emulator{on} (eager: every copy runs as it is enqueued)"
        return (
            f"numbaxfer emulator{on} (random schedule, seed {self.schedule.seed}, "
            f"eagerness {self._eagerness})"
        )

    # -- devices -------------------------------------------------------------
    def device_count(self) -> int:
        return self._count

    def on_device(self, device: int) -> EmulatorBackend:
        if not 0 <= device < self._count:
            raise ValueError(f"the emulator has devices 0 to {self._count - 1}, not {device}")
        found = self._shared.devices.get(device)
        if found is None:  # the same scheduler state; its own device number
            found = object.__new__(EmulatorBackend)
            found.__dict__.update(self.__dict__)
            found.device = device
            self._shared.devices[device] = found
        return found

    def buffer_device(self, device_buffer: Any) -> int:
        there = getattr(device_buffer, "nx_device", None)
        return self.device if there is None else int(there)

    def stream_device(self, stream: Any) -> int:
        return int(stream.device)

    def peer_route(self, other: Any) -> bool:
        return bool(self._shared.peer) and getattr(other, "family", None) is self.family

    def copy_peer(
        self, stream: Any, dst: Any, dst_backend: Any, src: Any, src_backend: Any
    ) -> None:
        if not self.peer_route(dst_backend if dst_backend is not self else src_backend):
            raise RuntimeError("emulated CUDA error: peer copy between devices without peer access")
        self._enqueue(stream, "copy_peer", lambda: np.copyto(dst._ary, src._ary))

    # -- memory --------------------------------------------------------------
    def alloc_pinned(
        self, shape: tuple[int, ...], dtype: np.dtype[Any], order: Literal["C", "F"] = "C"
    ) -> NDArray[Any]:
        if guard_enabled():  # pages of its own, so that guard mode can protect them all
            return alloc_pages(shape, dtype, order)
        return np.zeros(shape, dtype=dtype, order=order)

    def alloc_device(
        self, shape: tuple[int, ...], dtype: np.dtype[Any], order: Literal["C", "F"] = "C"
    ) -> Any:
        buf = self._cuda.to_device(np.zeros(shape, dtype=dtype, order=order))
        buf.nx_device = self.device  # its device's memory: kernels elsewhere cannot reach it
        return buf

    def host_memory(self, buf: NDArray[Any]) -> Any:
        return buf

    def device_view(self, device_buffer: Any, start: int, stop: int) -> Any:
        view = device_buffer[start:stop]
        view.nx_device = getattr(device_buffer, "nx_device", None)
        return view

    def kernel_arg(self, device_buffer: Any) -> Any:
        return device_buffer

    def alloc_mapped(self, shape: tuple[int, ...], dtype: np.dtype[Any]) -> tuple[Any, Any]:
        """Mapped (zero-copy) memory: a host array and a device view of the same bytes.
        Kernels that use the device view touch host memory when they run."""
        if guard_enabled():
            from numba.cuda.simulator.cudadrv.devicearray import FakeCUDAArray

            host = alloc_pages(shape, dtype)
            return host, FakeCUDAArray(host)  # type: ignore[no-untyped-call]
        mapped = self._cuda.mapped_array(shape, dtype=dtype)
        return mapped._ary, mapped

    def pin(self, array: NDArray[Any]) -> Any:
        return object()  # nothing to page-lock: host memory is ordinary memory here

    def map_in_place(self, array: NDArray[Any]) -> tuple[Any, Any]:
        """The array itself, seen by kernels: they touch host memory when they run."""
        from numba.cuda.simulator.cudadrv.devicearray import FakeCUDAArray

        return object(), FakeCUDAArray(array)  # type: ignore[no-untyped-call]

    def array_interface(self, device_buffer: Any) -> dict[str, Any]:
        raise TypeError(
            "__cuda_array_interface__ needs a real GPU: the emulator (numba's simulator "
            "underneath) has no device pointers to share."
        )

    def stream_handle(self, stream: Any) -> int | None:
        return None  # no driver handle: emulated streams exist only here

    def adopt_stream(self, handle: int) -> Any:
        raise TypeError("the emulator has no driver streams to adopt (its streams are queues)")

    def wait_event_handle(self, stream_handle: int, event: Any) -> None:
        raise TypeError("the emulator has no driver streams")

    def device_ordinal(self) -> int:
        return self.device

    def adopt_device(self, obj: Any) -> tuple[Any, tuple[int, ...], np.dtype[Any], int | None]:
        from numba.cuda.simulator.cudadrv.devicearray import FakeCUDAArray

        if isinstance(obj, FakeCUDAArray):
            return obj, tuple(obj.shape), np.dtype(obj._ary.dtype), None
        raise TypeError(
            f"the emulator adopts only simulator device arrays, not {type(obj).__name__}"
        )

    # -- streams -------------------------------------------------------------
    def new_stream(self) -> Any:
        with self._lock:
            self._wander()
            self._shared.streams += 1
            on = f" on device {self.device}" if self.device else ""
            return _Stream(f"emulated stream {self._shared.streams}{on}", self.device)

    def close_stream(self, stream: Any) -> None:
        # Queued work stays queued: it runs when something forces it (CUDA's
        # cuStreamDestroy neither waits nor cancels). Enqueuing on it is an error.
        with self._lock:
            self._wander()
            stream.closed = True

    def sync_stream(self, stream: Any) -> None:
        with self._lock:
            self._wander()
            self._force(stream, self._seq + 1)
            self._wander()

    def sync_all(self) -> None:
        """Run every enqueued operation (a device-wide synchronize)."""
        with self._lock:
            while self._busy:
                self._force(self._busy[0], self._seq + 1)

    def pending(self, stream: Any = None) -> int:
        """How many operations are enqueued and not yet run (on ``stream``, or all)."""
        with self._lock:
            if stream is not None:
                return len(stream.ops)
            return sum(len(s.ops) for s in self._busy)

    # -- work ----------------------------------------------------------------
    # The CPU is this backend's DMA engine and its GPU: a copy or kernel runs with the
    # guard-mode protection of the host memory it touches lifted (numbaxfer._guard).
    def copy_htod(self, stream: Any, dst: Any, src: NDArray[Any]) -> None:
        if self._graphs.capturing and self._graphs.take(stream, ("htod", dst, src)):
            return
        self._enqueue(
            stream,
            "copy_htod",
            lambda: lifted((src,), lambda: np.copyto(dst._ary, src), writes=False),
        )

    def copy_dtoh(self, stream: Any, dst: NDArray[Any], src: Any) -> None:
        if self._graphs.capturing and self._graphs.take(stream, ("dtoh", dst, src)):
            return
        self._enqueue(stream, "copy_dtoh", lambda: lifted((dst,), lambda: np.copyto(dst, src._ary)))

    def copy_dtod(self, stream: Any, dst: Any, src: Any) -> None:
        if self._graphs.capturing and self._graphs.take(stream, ("dtod", dst, src)):
            return
        self._enqueue(stream, "copy_dtod", lambda: np.copyto(dst._ary, src._ary))

    def launch(
        self,
        stream: Any,
        kernel: Any,
        griddim: int | tuple[int, ...],
        blockdim: int | tuple[int, ...],
        args: Sequence[Any],
    ) -> None:
        frozen = tuple(args)
        if self._graphs.capturing and self._graphs.take(
            stream, ("launch", kernel, griddim, blockdim, frozen)
        ):
            return
        name = getattr(getattr(kernel, "py_func", kernel), "__name__", "kernel")
        self._check_device(stream, f"launch {name}")
        for i, arg in enumerate(frozen):
            there = getattr(arg, "nx_device", None)
            if there is not None and there != stream.device:
                raise RuntimeError(
                    f"emulated CUDA error: launch {name} on {stream.label} (device "
                    f"{stream.device}): argument {i} is memory of device {there}, which "
                    "a kernel cannot reach (an illegal address)"
                )
        self._enqueue(
            stream,
            f"launch {name}",
            lambda: lifted(frozen, lambda: run_kernel(kernel, griddim, blockdim, frozen)),
        )

    # -- events --------------------------------------------------------------
    def record(self, stream: Any) -> Any:
        with self._lock:
            self._check_usable(stream, "record an event")
            self._check_device(stream, "record an event")
            self._wander()
            self._seq += 1
            event = _Event(stream, self._seq)
            self._wander()
            return event

    def query(self, event: Any) -> bool:
        with self._lock:
            if self._done(event):
                return True
            self._wander()
            if self._done(event):
                return True
            event.queried += 1
            if event.queried <= self._not_yet:
                return False
            self._force(event.stream, event.seq)
            return True

    def sync_event(self, event: Any) -> None:
        with self._lock:
            self._wander()
            self._force(event.stream, event.seq)
            self._wander()

    def wait_event(self, stream: Any, event: Any) -> None:
        with self._lock:
            self._check_usable(stream, "wait on an event")
            if self._graphs.is_capturing(stream):
                return  # a replay runs the capture in capture order, which honours it
            self._wander()
            self._seq += 1
            self._push(stream, _Op(self._seq, "wait", None, event))
            self._after_enqueue()

    def release_event(self, event: Any) -> None:
        with self._lock:
            self._wander()

    # -- graphs: recorded at capture, enqueued again (lazily) at each replay --
    def begin_capture(self, streams: Sequence[Any]) -> Any:
        with self._lock:
            for s in streams:
                self._check_usable(s, "begin a capture")
            return self._graphs.begin(streams)

    def end_capture(self, capture: Any, hosts: Sequence[Any]) -> Any:
        assert isinstance(capture, RecordedCapture)
        with self._lock:
            return self._graphs.end(capture, hosts)

    def abort_capture(self, capture: Any, streams: Sequence[Any]) -> None:
        with self._lock:
            self._graphs.abort(capture, streams)

    def graph_launch(self, graph: Any, stream: Any, hosts: Sequence[Any]) -> None:
        assert isinstance(graph, RecordedGraph)
        with self._lock:
            self._check_usable(stream, "launch a graph")
            for op in self._graphs.bind(graph, hosts):
                if op[0] == "htod":
                    self.copy_htod(stream, op[1], op[2])
                elif op[0] == "dtoh":
                    self.copy_dtoh(stream, op[1], op[2])
                elif op[0] == "dtod":
                    self.copy_dtod(stream, op[1], op[2])
                else:
                    self.launch(stream, op[1], op[2], op[3], op[4])

    def graph_destroy(self, graph: Any) -> None:
        pass  # enqueued replays hold what they use

    # -- the scheduler -------------------------------------------------------
    def _check_usable(self, stream: _Stream, what: str) -> None:
        if stream.closed:  # CUDA: the handle of a destroyed stream is invalid
            raise RuntimeError(
                f"emulated CUDA error: cannot {what} on {stream.label}: it was destroyed"
            )

    def _check_device(self, stream: _Stream, what: str) -> None:
        # CUDA: an event is recorded, and a kernel launched, in its stream's context.
        if stream.device != self.device:
            raise RuntimeError(
                f"emulated CUDA error: cannot {what} on {stream.label} (device "
                f"{stream.device}) through device {self.device}'s context"
            )

    def _enqueue(self, stream: _Stream, what: str, run: Callable[[], None]) -> None:
        with self._lock:
            self._check_usable(stream, what)
            self._wander()
            self._seq += 1
            self._push(stream, _Op(self._seq, what, run, None))
            self._after_enqueue()

    def _push(self, stream: _Stream, op: _Op) -> None:
        if not stream.ops:
            self._busy.append(stream)
        stream.ops.append(op)

    def _after_enqueue(self) -> None:
        if self.schedule.kind == "eager":
            self.sync_all()
        else:
            self._wander()

    def _done(self, event: _Event) -> bool:
        ops = event.stream.ops
        return not ops or ops[0].seq >= event.seq

    def _runnable(self, stream: _Stream) -> bool:
        head = stream.ops[0]
        return head.event is None or self._done(head.event)

    def _step(self, stream: _Stream) -> None:
        """Run the first pending op of ``stream`` (the caller checked it may run)."""
        op = stream.ops.popleft()
        if not stream.ops:
            self._busy.remove(stream)
        if self.trace is not None:
            self.trace.append(f"{stream.label}#{op.seq} {op.what}")
        if op.run is not None:
            op.run()

    def _random_step(self) -> None:
        # Some busy stream can always run: the busy stream whose first op has the lowest
        # seq either runs a copy or kernel, or waits for an event recorded earlier still,
        # whose work has therefore all run.
        runnable = [s for s in self._busy if self._runnable(s)]
        assert runnable, "emulator: no stream can run (an event wait cycle?)"
        self._step(self._rng.choice(runnable))

    def _wander(self) -> None:
        """Random schedule: let a random amount of enqueued work run now."""
        while self._busy and self._rng.random() < self._eagerness:
            self._random_step()

    def _force(self, stream: _Stream, upto: int) -> None:
        """Run ``stream``'s ops with seq < upto, and whatever they wait for."""
        while stream.ops and stream.ops[0].seq < upto:
            if self._eagerness and self._rng.random() < self._eagerness / 2:
                self._random_step()  # other work may run meanwhile
                continue
            target = stream
            while True:  # follow unmet waits to the op that must run first
                waited = target.ops[0].event
                if waited is None or self._done(waited):
                    break
                target = waited.stream  # its pending ops there all precede the wait
            self._step(target)


class RawEmulatedCuda:
    """The numba.cuda calls of the seed program, on the lazy emulator, unchecked.

    For demonstrations and tests: a program written the numba way
    (``dev.copy_to_device(host, stream=s)``, then touching ``host``) runs here with
    CUDA's timing, so its race gives the wrong answer on a CPU, every time. Nothing
    is checked: this is what numbaxfer protects against.

    The surface mirrors numba.cuda: ``stream()``, ``event()``, ``pinned_array()``,
    ``device_array()``, ``to_device()``, ``synchronize()``, device arrays'
    ``copy_to_device``/``copy_to_host`` (``stream=0``, the legacy default stream, waits
    for all work on every stream first and then copies at once, as numba's synchronous
    copies do), and kernels through ``kernel(dispatcher)[grid, block, stream](*args)``.
    """

    def __init__(self, backend: EmulatorBackend | None = None) -> None:
        self.backend = backend or EmulatorBackend()

    def stream(self) -> _RawStream:
        return _RawStream(self.backend, self.backend.new_stream())

    def event(self, timing: bool = False) -> _RawEvent:
        return _RawEvent(self.backend)

    def pinned_array(self, shape: int | tuple[int, ...], dtype: Any = np.float64) -> NDArray[Any]:
        dims = (shape,) if isinstance(shape, int) else tuple(shape)
        return self.backend.alloc_pinned(dims, np.dtype(dtype))

    def device_array(self, shape: int | tuple[int, ...], dtype: Any = np.float64) -> _RawDevice:
        dims = (shape,) if isinstance(shape, int) else tuple(shape)
        return _RawDevice(self.backend, self.backend.alloc_device(dims, np.dtype(dtype)))

    def to_device(self, ary: NDArray[Any], stream: _RawStream | int = 0) -> _RawDevice:
        dev = self.device_array(ary.shape, ary.dtype)
        dev.copy_to_device(ary, stream=stream)
        return dev

    def kernel(self, dispatcher: Any) -> _RawKernel:
        """Wrap a ``numba.cuda.jit`` kernel so that ``k[grid, block, stream](...)``
        enqueues it on an emulated stream (numba's own would run it at once)."""
        return _RawKernel(self.backend, dispatcher)

    def synchronize(self) -> None:
        """``cuda.synchronize()``: wait for all work on every stream."""
        self.backend.sync_all()


class _RawStream:
    def __init__(self, backend: EmulatorBackend, raw: _Stream) -> None:
        self.backend = backend
        self.raw = raw

    def synchronize(self) -> None:
        self.backend.sync_stream(self.raw)


class _RawEvent:
    def __init__(self, backend: EmulatorBackend) -> None:
        self.backend = backend
        self._event: _Event | None = None  # None: nothing captured, complete

    def record(self, stream: _RawStream | int = 0) -> None:
        if isinstance(stream, _RawStream):
            self._event = self.backend.record(stream.raw)
        else:  # the legacy default stream: everything so far
            self.backend.sync_all()
            self._event = None

    def query(self) -> bool:
        return self._event is None or self.backend.query(self._event)

    def synchronize(self) -> None:
        if self._event is not None:
            self.backend.sync_event(self._event)

    def wait(self, stream: _RawStream | int = 0) -> None:
        if self._event is None:
            return
        if isinstance(stream, _RawStream):
            self.backend.wait_event(stream.raw, self._event)
        else:  # default-stream work here is synchronous: wait on the host
            self.backend.sync_event(self._event)


class _RawDevice:
    def __init__(self, backend: EmulatorBackend, buf: Any) -> None:
        self.backend = backend
        self.buf = buf

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.buf.shape)

    @property
    def dtype(self) -> np.dtype[Any]:
        dtype: np.dtype[Any] = self.buf._ary.dtype
        return dtype

    @property
    def size(self) -> int:
        return int(self.buf._ary.size)

    def copy_to_device(self, ary: NDArray[Any] | _RawDevice, stream: _RawStream | int = 0) -> None:
        if isinstance(ary, _RawDevice):
            if isinstance(stream, _RawStream):
                self.backend.copy_dtod(stream.raw, self.buf, ary.buf)
            else:
                self.backend.sync_all()
                np.copyto(self.buf._ary, ary.buf._ary)
        elif isinstance(stream, _RawStream):
            self.backend.copy_htod(stream.raw, self.buf, ary)
        else:
            self.backend.sync_all()
            np.copyto(self.buf._ary, ary)

    def copy_to_host(
        self, ary: NDArray[Any] | None = None, stream: _RawStream | int = 0
    ) -> NDArray[Any]:
        out = np.empty(self.buf.shape, self.buf._ary.dtype) if ary is None else ary
        if isinstance(stream, _RawStream):
            self.backend.copy_dtoh(stream.raw, out, self.buf)
        else:
            self.backend.sync_all()
            np.copyto(out, self.buf._ary)
        return out


class _RawKernel:
    def __init__(self, backend: EmulatorBackend, dispatcher: Any) -> None:
        self.backend = backend
        self.dispatcher = dispatcher

    def __getitem__(self, config: tuple[Any, ...]) -> Callable[..., None]:
        griddim, blockdim = config[0], config[1]
        stream = config[2] if len(config) > 2 else 0

        def launch(*args: Any) -> None:
            raw = [a.buf if isinstance(a, _RawDevice) else a for a in args]
            if isinstance(stream, _RawStream):
                self.backend.launch(stream.raw, self.dispatcher, griddim, blockdim, raw)
            else:
                self.backend.sync_all()
                run_kernel(self.dispatcher, griddim, blockdim, raw)

        return launch
