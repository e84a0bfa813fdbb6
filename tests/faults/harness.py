"""Fault injection and interleaving harnesses for numbaxfer's runtime ownership rules.

Every call numbaxfer makes to CUDA goes through one :class:`numbaxfer._backend.Backend`.
The two wrappers here sit between the library and a real backend (the lazy emulator,
so that any ordering the library loses shows up as wrong data):

* :class:`FaultyBackend` raises an exception at the k-th backend call, either *before*
  the real call (it never happened) or *after* it (it happened: a copy really was
  enqueued, an event really synchronized, and then the interrupt arrived);
* :class:`InterleavingBackend` starts a second thread at the k-th backend call of the
  first thread's operation and lets it run (or block) before the call proceeds.

Handles keep the backend they were made with, so a wrapper is installed as
``numbaxfer._backend._current`` before a program creates its handles (:func:`installed`)
and the previous backend is restored afterwards.

Invariants checked after every injected fault (:func:`run_fault_case`), each reported
with the invariant's name and the object it broke on:

``surfaced``
    The exception that surfaces from the program is the injected one (the very
    instance), or an :class:`nx.OwnershipError` the program says it expects. Anything
    else (an AttributeError, a RuntimeError from the backend, the injected fault
    swallowed) is a violation.
``no-dropped-transfer``
    The library dropped no transfer on the floor: no ResourceWarning ("garbage-collected
    without being completed") is issued during the program or its recovery. A transfer
    the library made and never handed out holds host memory no handle can get back.
``no-race``
    Before anything is recovered: no *usable* host handle's memory is touched by a copy
    or kernel that the backend has enqueued and not yet run. (An "after" fault in an
    upload that gives ``src`` back while its copy is still queued is exactly this.)
``recoverable``
    Every Transfer / Mapping / PipelineRun the program holds is either completed or its
    ``wait()`` now succeeds (faults off) and returns the array(s).
``nothing-lost``
    After recovery, every host buffer the program made is usable again through the
    handle the program holds for it (the original, or what a ``wait()`` returned): no
    handle is moved with nothing able to give it back.
``single-owner``
    No two usable owned host handles share memory (``np.shares_memory`` of their
    ``read()`` views), before and after recovery.
``unchanged``
    A refused call changed nothing: re-running the program's operation with faults off,
    on the recovered handles, succeeds and gives numpy's answer (``recover_and_check``).
``closable``
    Every stream the program made closes (after its transfers are completed), and
    ``Pipeline.close()`` works.
"""

from __future__ import annotations

import contextlib
import gc
import threading
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal, Protocol

import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx
from numbaxfer import _backend
from numbaxfer._backend import Backend
from numbaxfer._backend._emulator import EmulatorBackend

__all__ = [
    "SCHEDULES",
    "diff",
    "Env",
    "FaultProgram",
    "FaultyBackend",
    "InterleavingBackend",
    "Outcome",
    "Violations",
    "installed",
    "make_inner",
    "run_fault_case",
]

When = Literal["before", "after"]
SCHEDULES: Final = ("lazy", "eager")

#: The Backend protocol's methods, in the protocol's order.
PROTOCOL_METHODS: Final = (
    "describe",
    "alloc_pinned",
    "alloc_device",
    "kernel_arg",
    "array_interface",
    "stream_handle",
    "alloc_mapped",
    "pin",
    "new_stream",
    "close_stream",
    "copy_htod",
    "copy_dtoh",
    "copy_dtod",
    "launch",
    "record",
    "query",
    "sync_event",
    "wait_event",
    "sync_stream",
    "release_event",
    "begin_capture",
    "end_capture",
    "abort_capture",
    "graph_launch",
    "graph_destroy",
)


def make_inner(schedule: str) -> EmulatorBackend:
    """A fresh emulator with the named schedule (``lazy`` or ``eager``)."""
    return EmulatorBackend(schedule)


@contextlib.contextmanager
def installed(backend: Any) -> Iterator[None]:
    """Make ``backend`` the process's backend for the block (handles made inside keep it)."""
    previous = _backend._current
    _backend._current = backend
    try:
        yield
    finally:
        _backend._current = previous


# -- the wrappers ----------------------------------------------------------------------
@dataclass
class Touch:
    """A host-memory-touching operation the inner backend accepted: a copy, or a kernel
    whose argument is mapped host memory. ``event`` captures it (recorded right after)."""

    index: int
    what: str
    memory: list[NDArray[Any]]
    event: Any


def _host_views(obj: Any) -> list[NDArray[Any]]:
    """The host memory an operand of a copy or launch stands for (numpy arrays as such;
    numba simulator arrays expose theirs as ``_ary``, which for mapped memory *is* the
    host array)."""
    if isinstance(obj, np.ndarray):
        return [obj]
    ary = getattr(obj, "_ary", None)
    return [ary] if isinstance(ary, np.ndarray) else []


class _Wrapper:
    """Delegates every Backend method to ``inner`` through :meth:`_call`."""

    def __init__(self, inner: Backend) -> None:
        self.inner = inner
        self.name = inner.name
        self.synchronous = inner.synchronous
        #: names of the counted calls, in order
        self.calls: list[str] = []
        #: host-memory-touching work accepted by the inner backend
        self.touches: list[Touch] = []

    def _call(self, name: str, fn: Callable[..., Any], *args: Any) -> Any:
        raise NotImplementedError

    def _log_touch(self, what: str, stream: Any, operands: Sequence[Any]) -> None:
        memory = [v for op in operands for v in _host_views(op)]
        if memory:
            # An extra event, invisible to the library: it tells the harness whether the
            # operation has run. (Recording changes nothing the emulator schedules.)
            self.touches.append(Touch(len(self.calls) - 1, what, memory, self.inner.record(stream)))

    def pending_touches(self) -> list[Touch]:
        """Touches the inner backend has not run yet (emulator only; none elsewhere)."""
        done = getattr(self.inner, "_done", None)
        if done is None:
            return []
        return [t for t in self.touches if not done(t.event)]

    def __getattr__(self, attr: str) -> Any:
        value = getattr(self.inner, attr)
        if not callable(value):
            return value

        def call(*args: Any) -> Any:
            return self._call(attr, value, *args)

        return call

    # -- the protocol -------------------------------------------------------------------
    def describe(self) -> str:
        return f"{type(self).__name__}({self.inner.describe()})"

    def alloc_pinned(
        self, shape: tuple[int, ...], dtype: np.dtype[Any], order: Literal["C", "F"] = "C"
    ) -> NDArray[Any]:
        result: NDArray[Any] = self._call(
            "alloc_pinned", self.inner.alloc_pinned, shape, dtype, order
        )
        return result

    def alloc_device(
        self, shape: tuple[int, ...], dtype: np.dtype[Any], order: Literal["C", "F"] = "C"
    ) -> Any:
        return self._call("alloc_device", self.inner.alloc_device, shape, dtype, order)

    def kernel_arg(self, device_buffer: Any) -> Any:
        return self._call("kernel_arg", self.inner.kernel_arg, device_buffer)

    def array_interface(self, device_buffer: Any) -> dict[str, Any]:
        result: dict[str, Any] = self._call(
            "array_interface", self.inner.array_interface, device_buffer
        )
        return result

    def stream_handle(self, stream: Any) -> int | None:
        result: int | None = self._call("stream_handle", self.inner.stream_handle, stream)
        return result

    def alloc_mapped(self, shape: tuple[int, ...], dtype: np.dtype[Any]) -> tuple[Any, Any]:
        result: tuple[Any, Any] = self._call("alloc_mapped", self.inner.alloc_mapped, shape, dtype)
        return result

    def pin(self, array: NDArray[Any]) -> Any:
        return self._call("pin", self.inner.pin, array)

    def new_stream(self) -> Any:
        return self._call("new_stream", self.inner.new_stream)

    def close_stream(self, stream: Any) -> None:
        self._call("close_stream", self.inner.close_stream, stream)

    def copy_htod(self, stream: Any, dst: Any, src: Any) -> None:
        def real(stream: Any, dst: Any, src: Any) -> None:
            self.inner.copy_htod(stream, dst, src)
            self._log_touch("copy_htod", stream, (src,))

        self._call("copy_htod", real, stream, dst, src)

    def copy_dtoh(self, stream: Any, dst: Any, src: Any) -> None:
        def real(stream: Any, dst: Any, src: Any) -> None:
            self.inner.copy_dtoh(stream, dst, src)
            self._log_touch("copy_dtoh", stream, (dst,))

        self._call("copy_dtoh", real, stream, dst, src)

    def copy_dtod(self, stream: Any, dst: Any, src: Any) -> None:
        self._call("copy_dtod", self.inner.copy_dtod, stream, dst, src)

    def launch(
        self,
        stream: Any,
        kernel: Any,
        griddim: int | tuple[int, ...],
        blockdim: int | tuple[int, ...],
        args: Sequence[Any],
    ) -> None:
        def real(
            stream: Any,
            kernel: Any,
            griddim: int | tuple[int, ...],
            blockdim: int | tuple[int, ...],
            args: Sequence[Any],
        ) -> None:
            self.inner.launch(stream, kernel, griddim, blockdim, args)
            # Only mapped memory is host memory here (ordinary device buffers' _ary is
            # memory no host handle shares).
            self._log_touch("launch", stream, args)

        self._call("launch", real, stream, kernel, griddim, blockdim, args)

    def graph_launch(self, graph: Any, stream: Any, hosts: Sequence[Any]) -> None:
        def real(graph: Any, stream: Any, hosts: Sequence[Any]) -> None:
            self.inner.graph_launch(graph, stream, hosts)
            self._log_touch("graph_launch", stream, hosts)  # a replay touches its buffers

        self._call("graph_launch", real, graph, stream, hosts)

    def record(self, stream: Any) -> Any:
        return self._call("record", self.inner.record, stream)

    def query(self, event: Any) -> bool:
        result: bool = self._call("query", self.inner.query, event)
        return result

    def sync_event(self, event: Any) -> None:
        self._call("sync_event", self.inner.sync_event, event)

    def wait_event(self, stream: Any, event: Any) -> None:
        self._call("wait_event", self.inner.wait_event, stream, event)

    def sync_stream(self, stream: Any) -> None:
        self._call("sync_stream", self.inner.sync_stream, stream)

    def release_event(self, event: Any) -> None:
        self._call("release_event", self.inner.release_event, event)


class FaultyBackend(_Wrapper):
    """Raise ``exc`` at backend call number ``fail_at`` (0-based), once.

    ``when="before"``: the real call is not made. ``when="after"``: the real call is
    made, then ``exc`` is raised (the nastiest case: the work exists, the library never
    hears of it). ``fail_at < 0`` never fails (the counting pass). ``armed = False``
    turns the fault off (recovery runs with faults off).
    """

    def __init__(
        self,
        inner: Backend,
        fail_at: int = -1,
        exc: type[BaseException] = RuntimeError,
        when: When = "before",
    ) -> None:
        super().__init__(inner)
        self.fail_at = fail_at
        self.exc = exc
        self.when: When = when
        self.armed = True
        #: how many calls the program's run made (the rest are the harness's recovery)
        self.run_calls = 0
        #: the exception instance raised, once it has been
        self.injected: BaseException | None = None

    def _call(self, name: str, fn: Callable[..., Any], *args: Any) -> Any:
        index = len(self.calls)
        self.calls.append(name)
        if not self.armed or index != self.fail_at or self.injected is not None:
            return fn(*args)
        error = self.exc(f"injected fault at backend call {index} ({name}, {self.when})")
        self.injected = error
        if self.when == "before":
            raise error
        fn(*args)
        raise error


class InterleavingBackend(_Wrapper):
    """At the ``at``-th backend call (0-based) of the primary thread, after
    :meth:`arm`, start a thread running ``action``; wait until it finishes or blocks
    (a bounded join), then make the call. Calls from other threads pass through
    uncounted."""

    #: How long the primary thread waits for the action before it goes on (the action is
    #: expected to block on numbaxfer's lock while the primary's operation holds it).
    JOIN_S: Final = 0.05

    def __init__(self, inner: Backend, at: int = -1, action: Callable[[], None] | None = None):
        super().__init__(inner)
        self.at = at
        self.action = action
        self.primary: int | None = None
        self.thread: threading.Thread | None = None

    def arm(self) -> None:
        """Count from now, on this thread."""
        self.calls = []
        self.primary = threading.get_ident()

    def disarm(self) -> None:
        self.primary = None

    def _call(self, name: str, fn: Callable[..., Any], *args: Any) -> Any:
        if self.primary is None or threading.get_ident() != self.primary:
            return fn(*args)
        index = len(self.calls)
        self.calls.append(name)
        if index == self.at and self.action is not None and self.thread is None:
            self.thread = threading.Thread(target=self.action, name="interleaved", daemon=True)
            self.thread.start()
            self.thread.join(self.JOIN_S)
        return fn(*args)


# -- programs and their environment ----------------------------------------------------
class Violations:
    """Broken invariants, each ``[invariant] object: what happened``."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, invariant: str, obj: str, what: str) -> None:
        self.items.append(f"[{invariant}] {obj}: {what}")

    def __bool__(self) -> bool:
        return bool(self.items)

    def report(self, title: str) -> str:
        return title + "\n  " + "\n  ".join(self.items)


def diff(got: NDArray[Any], want: NDArray[Any]) -> str:
    """Where ``got`` differs from numpy's ``want``, in a few words."""
    g, w = np.asarray(got).reshape(-1), np.asarray(want).reshape(-1)
    if g.shape != w.shape:
        return f"shape {g.shape}, numpy says {w.shape}"
    bad = np.flatnonzero(g != w)
    shown = ", ".join(f"[{i}] {g[i]} (numpy: {w[i]})" for i in bad[:3])
    return f"{bad.size} of {g.size} elements differ: {shown}"


def _err(e: BaseException) -> str:
    text = str(e).split("\n")[0]
    if len(text) > 240:
        text = text[:240] + "..."
    return f"{type(e).__name__}: {text}"


@dataclass
class _Waitable:
    obj: Any  # Transfer | Mapping | PipelineRun
    gives: tuple[str, ...]
    completed: bool = False
    consumed: bool = False  # handed to someone else (pool.recycle) who completes it


@dataclass
class Env:
    """What a program made, by name, so that the harness can recover and check it.

    ``pinned[name]`` is the program's *current* handle for one host buffer (rebound when
    a ``wait()`` returns it); ``regions[name]`` is that buffer's memory, taken when it was
    made, for identity only (never read).
    """

    backend: _Wrapper
    violations: Violations = field(default_factory=Violations)
    streams: dict[str, nx.Stream[nx.Owned]] = field(default_factory=dict)
    pinned: dict[str, nx.PinnedArray[nx.Owned, Any]] = field(default_factory=dict)
    regions: dict[str, NDArray[Any]] = field(default_factory=dict)
    #: names whose handle legitimately ends unusable (nx.pinned() blocks), or that a
    #: pool holds now
    exempt: set[str] = field(default_factory=set)
    waitables: dict[str, _Waitable] = field(default_factory=dict)
    pipelines: dict[str, nx.Pipeline[Any]] = field(default_factory=dict)
    #: every host handle object ever seen (for single-owner: old handles must not be
    #: usable next to the new one)
    seen: list[tuple[str, nx.PinnedArray[Any, Any]]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    # -- recording ------------------------------------------------------------------------
    def stream(self, name: str, s: nx.Stream[nx.Owned]) -> nx.Stream[nx.Owned]:
        self.streams[name] = s
        return s

    def host(self, name: str, h: Any, *, exempt: bool = False) -> Any:
        """Record a new host buffer (PinnedArray or MappedArray) under ``name``."""
        self.pinned[name] = h
        self.regions[name] = h.read()
        self.seen.append((name, h))
        if exempt:
            self.exempt.add(name)
        return h

    def rebind(self, name: str, h: Any) -> None:
        self.pinned[name] = h
        self.seen.append((name, h))

    def waitable(self, name: str, obj: Any, gives: tuple[str, ...]) -> Any:
        self.waitables[name] = _Waitable(obj, gives)
        return obj

    def consumed(self, name: str) -> None:
        """``name`` was handed over (pool.recycle); its buffers belong to the taker."""
        w = self.waitables[name]
        w.consumed = True
        self.exempt.update(w.gives)

    def wait(self, name: str) -> Any:
        """Complete waitable ``name`` and rebind what it gives back."""
        w = self.waitables[name]
        result = w.obj.wait()
        w.completed = True
        results = result if isinstance(result, tuple) else (result,)
        for given, h in zip(w.gives, results, strict=True):
            self.rebind(given, h)
        return result

    def expect(self, obj: str, got: NDArray[Any], want: NDArray[Any], invariant: str) -> None:
        if not np.array_equal(got, want):
            self.violations.add(invariant, obj, f"wrong data: {diff(got, want)}")

    # -- queries --------------------------------------------------------------------------
    def usable(self) -> list[tuple[str, nx.PinnedArray[Any, Any], NDArray[Any]]]:
        """Every seen host handle whose read() works now, with its view."""
        out: list[tuple[str, nx.PinnedArray[Any, Any], NDArray[Any]]] = []
        for name, h in self.seen:
            try:
                view = h.read()
            except nx.OwnershipError:
                continue
            out.append((name, h, view))
        return out


class FaultProgram(Protocol):
    """A representative program: ``run`` does the work on the installed backend and
    records everything it makes into ``env``; ``recover_and_check`` runs after recovery,
    with faults off, re-does the operation on the recovered handles and compares with
    numpy (``env.expect``)."""

    name: str
    #: ownership errors the program may let surface (besides the injected fault)
    expected: tuple[type[BaseException], ...]

    def run(self, env: Env) -> None: ...

    def recover_and_check(self, env: Env) -> None: ...


# -- the fault-injection runner --------------------------------------------------------
def count_calls(program: Callable[[], FaultProgram], schedule: str) -> tuple[list[str], Violations]:
    """The counting pass: the program's backend calls with no fault, and the
    invariants it breaks even so (it should break none)."""
    violations, backend = run_fault_case(program(), schedule, -1, RuntimeError, "before")
    return backend.calls[: backend.run_calls], violations


def _check_single_owner(env: Env, when: str) -> None:
    usable = env.usable()
    for i, (na, ha, va) in enumerate(usable):
        for nb, hb, vb in usable[i + 1 :]:
            if ha is not hb and np.shares_memory(va, vb):
                env.violations.add(
                    "single-owner",
                    f"{na}={ha.label} and {nb}={hb.label}",
                    f"both usable {when} and they share memory (two owners)",
                )


def _check_no_race(env: Env) -> None:
    pending = env.backend.pending_touches()
    if not pending:
        return
    for name, h, view in env.usable():
        for t in pending:
            if any(np.shares_memory(view, m) for m in t.memory):
                env.violations.add(
                    "no-race",
                    f"{name}={h.label}",
                    f"usable while its memory is touched by {t.what} (backend call {t.index}), "
                    "enqueued and not yet run",
                )
                break


def _recover(env: Env) -> None:
    for wname, w in env.waitables.items():
        if w.completed or w.consumed:
            continue
        label = getattr(w.obj, "label", None) or type(w.obj).__name__
        try:
            env.wait(wname)
        except BaseException as e:  # KeyboardInterrupt included: faults are off here
            env.violations.add(
                "recoverable", f"{wname}={label}", f"wait() with faults off raised {_err(e)}"
            )


def _check_nothing_lost(env: Env) -> None:
    for name, h in env.pinned.items():
        if name in env.exempt:
            continue
        try:
            h.read()
        except nx.OwnershipError as e:
            env.violations.add(
                "nothing-lost",
                f"{name}={h.label}",
                f"unusable after recovery and no live transfer gives it back: {_err(e)}",
            )


def _close_all(env: Env) -> None:
    for name, s in env.streams.items():
        if s.closed:
            continue
        try:
            s.close()
        except BaseException as e:
            env.violations.add("closable", f"{name}={s.label}", f"close() raised {_err(e)}")
    for name, p in env.pipelines.items():
        try:
            p.close()
        except BaseException as e:
            env.violations.add("closable", f"pipeline {name}", f"close() raised {_err(e)}")


_GRAVEYARD: list[Any] = []


def run_fault_case(
    program: FaultProgram, schedule: str, fail_at: int, exc: type[BaseException], when: When
) -> tuple[Violations, FaultyBackend]:
    """Run ``program`` once with a fault at backend call ``fail_at``, then check every
    invariant (see the module docstring). Returns the violations found."""
    backend = FaultyBackend(make_inner(schedule), fail_at, exc, when)
    env = Env(backend)
    v = env.violations
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        with installed(backend):
            surfaced: BaseException | None = None
            try:
                program.run(env)
            except BaseException as e:  # the fault may be a KeyboardInterrupt
                surfaced = e
            finally:
                backend.armed = False
                backend.run_calls = len(backend.calls)
            # Free the traceback now (its frames may hold a transfer the library made and
            # dropped: it must warn here), then collect the young generations only (a
            # full collection costs ~25 ms with numba loaded).
            if surfaced is not None:
                surfaced.__traceback__ = None
            gc.collect(1)
            # -- surfaced
            injected = backend.injected
            if fail_at >= 0 and injected is None:
                v.add("harness", program.name, f"the fault at call {fail_at} never fired")
            if surfaced is not None and surfaced is not injected:
                if not (program.expected and isinstance(surfaced, program.expected)):
                    v.add(
                        "surfaced",
                        program.name,
                        f"expected the injected {exc.__name__}, got {_err(surfaced)}"
                        + (
                            f" (context: {_err(surfaced.__context__)})"
                            if surfaced.__context__ is not None
                            else ""
                        ),
                    )
            elif surfaced is None and injected is not None:
                v.add(
                    "surfaced",
                    program.name,
                    f"the injected {exc.__name__} at call {fail_at} was swallowed: the "
                    "program completed",
                )
            # -- before recovery
            _check_no_race(env)
            _check_single_owner(env, "before recovery")
            # -- recovery, faults off
            _recover(env)
            _check_nothing_lost(env)
            _check_single_owner(env, "after recovery")
            try:
                program.recover_and_check(env)
            except BaseException as e:
                v.add("unchanged", program.name, f"re-running the operation raised {_err(e)}")
            _close_all(env)
            # What could not be completed (already reported) is kept alive here for good,
            # so that it does not warn later, inside another case.
            _GRAVEYARD.extend(w.obj for w in env.waitables.values() if not w.completed)
            env.extra.clear()
            env.pinned.clear()
            env.seen.clear()
            env.waitables.clear()
            surfaced = backend.injected = None
            gc.collect(1)
    for w in caught:
        if issubclass(w.category, ResourceWarning):
            v.add("no-dropped-transfer", program.name, str(w.message).split(". ")[0])
    return v, backend


# -- the interleaving runner -----------------------------------------------------------
@dataclass
class Outcome:
    """What one thread's call did: returned ``value`` or raised ``error``."""

    value: Any = None
    error: BaseException | None = None
    ran: bool = False

    def capture(self, fn: Callable[[], Any]) -> None:
        self.ran = True
        try:
            self.value = fn()
        except BaseException as e:
            self.error = e

    @property
    def ok(self) -> bool:
        return self.ran and self.error is None

    def raised(self, kind: type[BaseException]) -> bool:
        return self.error is not None and isinstance(self.error, kind)

    def __str__(self) -> str:
        if not self.ran:
            return "did not run"
        if self.error is not None:
            return f"raised {_err(self.error)}"
        return f"returned {type(self.value).__name__}"
