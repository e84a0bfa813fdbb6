"""Ownership-checked CUDA graphs: capture numbaxfer work once, replay it.

``with nx.capture(s1, s2) as cap:`` records the uploads, launches and downloads
enqueued on those streams instead of running them; ``cap.graph`` is the result. The
host buffers the captured copies touch (whole arrays: a split part counts as the array
it was split from) are the graph's *parameters*, in capture order. The transfers made
inside the block complete at once after it (nothing ran) and give their buffers back.

``graph.replay(a, b, ...)`` MOVES every parameter buffer into the returned
:class:`GraphRun` (one graph launch on one stream); ``a, b, ... = run.wait()`` hands
them back once the replay has finished. Between replays the graph owns nothing: while
a replay runs, nobody can touch a buffer it reads or writes. A replay with other
buffers of the same shape, dtype and memory order re-points the graph's copies (no new
capture). Device arrays the captured work uses are kept alive by the graph; a replay
counts as a read or write of each on the replay stream, ordered like any other work
(rule 4).
"""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Generator
from types import TracebackType
from typing import Any, Final, final

import numpy as np

from ._backend import Backend
from ._checks import check_host
from ._errors import OwnershipError, StreamClosedError, UseAfterTransferError, where
from ._host import PinnedArray, layout
from ._lifetime import keep_alive
from ._order import CaptureState, DeviceOrder, StreamCore
from ._ownership import STATE_LOCK, Consumed, MoveRecord, Owned, Unique, caller_site
from ._stream import Stream
from ._transfer import Transfer

__all__ = ["Capture", "Graph", "GraphRun", "capture"]

_numbers = itertools.count(1)
_FREE_KIND: Final = "free"


@final
class GraphRun(Unique):
    """One replay of a :class:`Graph` in flight, holding the buffers it moved.

    ``wait()`` blocks on this replay's own events (not the stream, not the device) and
    returns the parameter buffers, owned again, as a tuple in parameter order; rebind
    your names: ``a, b = run.wait()``. ``done()`` polls without blocking. Completed
    exactly once. Interrupted, ``wait()`` may be called again (each buffer is given back
    once). Dropped without completion: a ResourceWarning per buffer, which stays alive,
    unusable, until the replay has really finished.
    """

    __slots__ = ("__weakref__", "_back", "_graph", "_transfers", "_waited_at")

    _graph: Graph
    _transfers: list[Transfer[Any]]
    _back: list[Any]
    _waited_at: tuple[str, int] | None

    def __init__(self) -> None:
        raise TypeError("GraphRun is not created directly: Graph.replay() returns one.")

    @classmethod
    def _create(cls, graph: Graph, transfers: list[Transfer[Any]]) -> GraphRun:
        self = object.__new__(cls)
        self._graph = graph
        self._transfers = transfers
        self._back = [None] * len(transfers)
        self._waited_at = None
        return self

    @property
    def completed(self) -> bool:
        """True once ``wait()`` has returned the buffers."""
        return self._waited_at is not None

    def __repr__(self) -> str:
        state = "completed" if self.completed else "pending"
        return f"<GraphRun of {self._graph.label}: {state}>"

    def done(self) -> bool:
        """True once the replay has finished, so that ``wait()`` will not block."""
        return all(t.done() for t in self._transfers)

    def wait(self) -> tuple[PinnedArray[Owned, Any], ...]:
        """Block until the replay has finished; return the parameter buffers (owned),
        in parameter order. Synchronizes this replay's events only."""
        site = caller_site()
        if self._waited_at is not None:
            raise UseAfterTransferError(
                f"cannot wait() on this replay of {self._graph.label} at {where(site)}: it "
                f"was already completed at {where(self._waited_at)}, which returned its "
                "buffers. Use the handles that first wait() returned."
            )
        for i, transfer in enumerate(self._transfers):
            if not transfer.completed:
                self._back[i] = transfer.wait()
        result = tuple(b for b in self._back if b is not None)
        # The commit: plain stores (no call can be interrupted between them).
        self._back, self._waited_at = [None] * len(self._back), site
        return result

    def __await__(self) -> Generator[Any, None, tuple[PinnedArray[Owned, Any], ...]]:
        """``a, b = await run``: completes it without blocking the event loop (see
        ``Transfer.__await__``)."""
        return self._wait_async().__await__()

    async def _wait_async(self) -> tuple[PinnedArray[Owned, Any], ...]:
        for i, transfer in enumerate(self._transfers):
            if self._waited_at is None and not transfer.completed:
                self._back[i] = await transfer
        return self.wait()


@final
class Graph(Unique):
    """An executable graph of captured numbaxfer work (from ``nx.capture``).

    ``parameters`` describes the host buffers every replay takes, in order.
    ``replay(*hosts, stream=None)`` moves them into a :class:`GraphRun`; ``close()``
    frees the graph (refused while a replay is not completed). Handles refuse
    ``copy``/``pickle``.
    """

    __slots__ = (
        "__weakref__",
        "_backend",
        "_closed_at",
        "_default",
        "_exe",
        "_label",
        "_params",
        "_replayed",
        "_runs",
        "_uses",
    )

    _backend: Backend
    _exe: Any
    _label: str
    #: (label, shape, dtype, order) of each parameter
    _params: list[tuple[str, tuple[int, ...], np.dtype[Any], str]]
    _uses: list[tuple[DeviceOrder, bool]]
    _default: Stream[Any]
    _runs: weakref.WeakSet[GraphRun]
    _replayed: dict[int, StreamCore]
    _closed_at: tuple[str, int] | None

    def __init__(self) -> None:
        raise TypeError("Graph is not created directly: use `with nx.capture(...) as cap:`.")

    @classmethod
    def _create(
        cls,
        backend: Backend,
        exe: Any,
        label: str,
        params: list[PinnedArray[Any, Any]],
        uses: list[tuple[DeviceOrder, bool]],
        default: Stream[Any],
    ) -> Graph:
        self = object.__new__(cls)
        self._backend = backend
        self._exe = exe
        self._label = label
        self._params = [(p.label, p.shape, p.dtype, layout(p._buf)) for p in params]
        self._uses = uses
        self._default = default
        self._runs = weakref.WeakSet()
        self._replayed = {}
        self._closed_at = None
        return self

    @property
    def label(self) -> str:
        return self._label

    @property
    def closed(self) -> bool:
        return self._closed_at is not None

    @property
    def parameters(self) -> tuple[tuple[tuple[int, ...], np.dtype[Any]], ...]:
        """(shape, dtype) of each host buffer a replay takes, in order."""
        return tuple((shape, dtype) for _, shape, dtype, _ in self._params)

    def __repr__(self) -> str:
        names = ", ".join(p[0] for p in self._params)
        state = "closed" if self.closed else "ready"
        return f"<{self._label}({names}): {state}>"

    def replay(
        self, *hosts: Consumed[PinnedArray[Owned, Any]], stream: Stream[Any] | None = None
    ) -> GraphRun:
        """Run the captured work once more, on ``stream`` (default: the first captured
        stream), with ``hosts`` as the parameter buffers; returns at once.

        Every host buffer MOVES into the returned run (every use of it raises until
        ``run.wait()`` gives it back). Each must be an owned pinned array with the shape,
        dtype and memory order of its parameter; other buffers than last time are fine
        (the graph's copies are re-pointed). The replay is one graph launch: work on
        other streams that touched the graph's device arrays is ordered before it by an
        event wait on the device, and later work is ordered after it. A replay while an
        earlier one is still in flight is ordered after it (same graph: the driver runs
        launches of one graph one after the other). A refused call changes nothing.
        """
        site = caller_site()
        with STATE_LOCK:
            if self._closed_at is not None:
                raise StreamClosedError(
                    f"cannot replay {self._label} at {where(site)}: it was closed at "
                    f"{where(self._closed_at)}. Capture the work again."
                )
            on = self._default if stream is None else stream
            if not isinstance(on, Stream):
                raise TypeError(
                    f"{self._label}.replay(stream=...) takes an nx.Stream, not {type(on).__name__}"
                )
            on._check_open("replay a graph", site)
            core = on._core
            if core.backend is not self._backend:
                raise ValueError(
                    f"{self._label}.replay() at {where(site)}: {on.label} belongs to another "
                    "backend or device than the graph."
                )
            if core.capture is not None:
                raise OwnershipError(
                    f"cannot replay {self._label} on {on.label} at {where(site)}: the stream is "
                    f"capturing into {core.capture.label}; graphs are not captured into "
                    "graphs. Replay it outside the capture block."
                )
            self._check_hosts(hosts, site)
            self._check_devices(site)
            uses = self._uses
            waits = core.plan(uses)  # a strict stream refuses here
            backend = self._backend
            mems = [h._mem for h in hosts]
            try:
                for other in waits:
                    core.wait_for(other)
                backend.graph_launch(self._exe, core.raw, mems)
                events = [backend.record(core.raw) for _ in range(max(1, len(hosts)))]
            except BaseException:
                core.settle()
                raise
            core.commit_uses(uses)
            self._replayed[id(core)] = core
            return self._hand_over(core, on.label, hosts, events, site)

    def _check_hosts(self, hosts: tuple[Any, ...], site: tuple[str, int]) -> None:
        params = self._params
        if len(hosts) != len(params):
            names = ", ".join(p[0] for p in params)
            raise TypeError(
                f"{self._label}.replay() at {where(site)} takes {len(params)} host buffer(s) "
                f"({names}, in capture order), got {len(hosts)}."
            )
        for i, (host, (name, shape, dtype, order)) in enumerate(zip(hosts, params, strict=True)):
            check_host(host, f"{self._label}.replay", f"parameter {i}", self._backend)
            if host.shape != shape or host.dtype != dtype or layout(host._buf) != order:
                raise ValueError(
                    f"{self._label}.replay() at {where(site)}: parameter {i} must be like "
                    f"{name}: {dtype}{list(shape)}, {order}-ordered; got {host.label}, "
                    f"{layout(host._buf)}-ordered. Allocate a buffer of that shape, dtype and "
                    "order (or capture again)."
                )
            host._flag.check_writable(f"move into {self._label}.replay()", site)
        for i, a in enumerate(hosts):
            for j in range(i):
                b = hosts[j]
                if a is b or np.may_share_memory(a._buf, b._buf):
                    raise ValueError(
                        f"{self._label}.replay() at {where(site)}: parameters {j} and {i} "
                        f"({b.label}, {a.label}) share memory; each parameter needs its own "
                        "buffer."
                    )

    def _check_devices(self, site: tuple[str, int]) -> None:
        """The graph's device arrays: one it writes may not be lent; a split one may not
        be used (its parts order their own work). A freed one lives on in the graph."""
        for order, writes in self._uses:
            flag = order.owner
            if flag is None:
                continue
            moved = flag._moved
            if flag.is_moved and moved is not None and moved.kind == _FREE_KIND:
                continue
            if writes:
                flag.check_writable(f"replay {self._label}, which writes", site)
            else:
                flag.check_read(f"replay {self._label}, which reads")

    def _hand_over(
        self,
        core: StreamCore,
        stream_label: str,
        hosts: tuple[PinnedArray[Any, Any], ...],
        events: list[Any],
        site: tuple[str, int],
    ) -> GraphRun:
        """Commit a replay: every host buffer moves into a transfer of the new run. If
        this is interrupted, the stream is settled (the replay has run) and every
        buffer given back."""
        moved: list[PinnedArray[Any, Any]] = []
        transfers: list[Transfer[Any]] = []
        try:
            for host, event in zip(hosts, events, strict=False):
                move = MoveRecord(f"replay of {self._label}", stream_label, site)
                host._flag.move(move)
                moved.append(host)
                transfers.append(Transfer._start(core, "replay", host, event, move))
            if not hosts:
                transfers.append(
                    Transfer._start(core, "replay", None, events[0], None, self._label)
                )
            run = GraphRun._create(self, transfers)
            self._runs.add(run)
            return run
        except BaseException:
            for transfer in transfers:
                transfer._abandon()
            core.settle()
            for host in moved:
                host._flag.unmove()
            raise

    def close(self) -> None:
        """Free the executable graph. Refused while a replay is not completed (its
        ``wait()`` gives the buffers back). Device memory the graph uses stays alive
        until the replays already enqueued have finished. Closing twice is a no-op."""
        site = caller_site()
        with STATE_LOCK:
            if self._closed_at is not None:
                return
            pending = [r for r in self._runs if not r.completed]
            if pending:
                raise StreamClosedError(
                    f"cannot close {self._label} at {where(site)}: {len(pending)} replay(s) of "
                    "it are not completed. Complete each with `bufs = run.wait()`, then close."
                )
            self._release()
            self._closed_at = site

    def _release(self) -> None:
        exe, self._exe = self._exe, None
        if exe is None:
            return
        for core in self._replayed.values():  # replays dropped unfinished may still run
            event = core.event_now()
            if not self._backend.query(event):
                keep_alive(self._backend, event, exe)
        self._replayed.clear()
        self._backend.graph_destroy(exe)

    def __del__(self) -> None:
        try:
            if getattr(self, "_closed_at", None) is None and getattr(self, "_exe", None):
                self._release()
        except Exception:  # the context may already be gone at exit
            pass


@final
class Capture(Unique):
    """The ``with nx.capture(...)`` block: records the work enqueued on its streams.

    Inside, copies and launches on those streams are recorded, not run; a transfer made
    there refuses ``wait()``/``done()`` until the block has ended, and then completes at
    once. ``graph`` is the result once the block has ended without an exception. Enter
    it once.
    """

    __slots__ = ("_backend", "_entered", "_graph", "_label", "_site", "_state", "_streams")

    _backend: Backend
    _entered: bool
    _label: str
    _site: tuple[str, int]
    _streams: list[Stream[Any]]
    _state: CaptureState | None
    _graph: Graph | None

    def __init__(self) -> None:
        raise TypeError("Capture is not created directly: use `with nx.capture(s1, ...):`.")

    @classmethod
    def _create(cls, streams: list[Stream[Any]], site: tuple[str, int]) -> Capture:
        self = object.__new__(cls)
        self._streams = streams
        self._backend = streams[0]._backend
        self._site = site
        self._entered = False
        self._state = None
        self._graph = None
        self._label = f"Graph#{next(_numbers)}"
        return self

    @property
    def graph(self) -> Graph:
        """The captured graph (after the block)."""
        if self._graph is None:
            state = self._state
            when = (
                "still open"
                if state is not None and state.open
                else "not entered"
                if not self._entered
                else "ended without a graph (an exception, or an interrupted operation)"
            )
            raise OwnershipError(
                f"the capture {self._label} taken at {where(self._site)} is {when}: "
                "cap.graph exists once the `with nx.capture(...) as cap:` block has ended "
                "normally."
            )
        return self._graph

    def __enter__(self) -> Capture:
        site = caller_site()
        with STATE_LOCK:
            if self._entered:
                raise RuntimeError(
                    f"the capture taken at {where(self._site)} was already entered; call "
                    "nx.capture() again for a new block."
                )
            cores = []
            for s in self._streams:
                s._check_open("capture", site)
                if s._core.capture is not None:
                    raise OwnershipError(
                        f"cannot capture on {s.label} at {where(site)}: it is already "
                        f"capturing into {s._core.capture.label}."
                    )
                cores.append(s._core)
            backend = self._backend
            state = CaptureState(cores, self._label)
            before: list[Any] = []
            raws = [c.raw for c in cores]
            began = False
            try:
                for core in cores:
                    before.append(backend.record(core.raw))
                began = True
                state.token = backend.begin_capture(raws)
            except BaseException:
                if began:  # the capture may have begun without us hearing of it
                    backend.abort_capture(None, raws)
                for event in before:
                    backend.release_event(event)
                raise
            # The commit: plain stores.
            state.before = dict(zip(cores, before, strict=True))
            state.saved = {core: dict(core.synced) for core in cores}
            self._state, self._entered = state, True
            for core in cores:
                core.capture = state
        return self

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        with STATE_LOCK:
            state = self._state
            if state is None or not state.open:
                return
            # First the streams, whatever happens next: they run work normally again.
            state.open = False
            for core in state.cores:
                core.capture = None
                core.synced = state.saved[core]
            backend = self._backend
            try:
                self._end(state, backend, et is not None)
            finally:  # the events nobody was handed go back to the pool
                before, state.before = state.before, {}
                for core, event in before.items():
                    if core not in state.kept:
                        backend.release_event(event)

    def _end(self, state: CaptureState, backend: Backend, failed: bool) -> None:
        """End the backend's capture: a graph, or (on an exception in the block, or an
        operation interrupted inside it) nothing."""
        raws = [c.raw for c in state.cores]
        if failed or state.broken:
            backend.abort_capture(state.token, raws)
            if not failed:
                raise OwnershipError(
                    f"the capture {self._label} taken at {where(self._site)} was "
                    "interrupted in the middle of an operation; it is discarded. The "
                    "transfers made inside it complete at once (wait() them), then "
                    "capture again."
                )
            return
        roots = [root for _, root in sorted(state.params.values(), key=lambda e: e[0])]
        try:
            exe = backend.end_capture(state.token, [r._mem for r in roots])
        except BaseException:  # whatever the backend got to: nothing stays capturing
            backend.abort_capture(state.token, raws)
            raise
        self._graph = Graph._create(
            backend, exe, self._label, roots, list(state.uses.values()), self._streams[0]
        )


def capture(*streams: Stream[Any]) -> Capture:
    """``with nx.capture(s1, s2, ...) as cap:`` records the numbaxfer work enqueued on
    these streams into a graph, ``cap.graph``, instead of running it.

    Host buffers move into the block's transfers as usual; after the block those
    transfers complete at once (nothing ran): take the buffers back with ``wait()``,
    then ``graph.replay(...)`` them. Inside the block, ``wait()``/``done()`` of those
    transfers, ``synchronize()``/``close()`` of the captured streams, staged uploads,
    mappings and waits for streams outside the capture are refused. Work on other
    streams runs normally meanwhile.
    """
    site = caller_site()
    if not streams:
        raise TypeError(f"nx.capture() at {where(site)} needs at least one stream to capture on")
    given = list(streams)
    for s in given:
        if not isinstance(s, Stream):
            raise TypeError(
                f"nx.capture() at {where(site)} takes nx.Stream objects, not {type(s).__name__}"
            )
    cores = [s._core for s in given]
    if len({id(c) for c in cores}) != len(cores):
        raise ValueError(f"nx.capture() at {where(site)}: the same stream is given twice")
    backend = given[0]._backend
    if any(s._backend is not backend for s in given):
        raise ValueError(
            f"nx.capture() at {where(site)}: the streams belong to different backends or devices"
        )
    return Capture._create(given, site)
