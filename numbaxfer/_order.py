"""Stream order across streams: which stream last wrote a device array and which read
it since, and the device-side event waits that order one stream after another.

``StreamCore`` is what a stream's owner and its lent handles share; ``DeviceOrder`` is
what a device array and its lent handles share. Both are plain records: the handles
check ownership, then ask this module what to wait for, enqueue, then commit.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from ._backend import Backend
from ._errors import CrossStreamError, OwnershipError, StreamClosedError, where
from ._trace import LOG

__all__ = ["CaptureState", "DeviceOrder", "StreamCore", "fence_events"]


class StreamCore:
    """What the owner and every lent handle of one stream share."""

    __slots__ = (
        "backend",
        "capture",
        "closed_at",
        "epoch",
        "foreign",
        "label",
        "pending",
        "raw",
        "strict",
        "synced",
        "tail",
    )

    def __init__(self, backend: Backend, label: str, strict: bool = False, raw: Any = None) -> None:
        self.backend = backend
        #: Raise CrossStreamError instead of inserting a cross-stream event wait.
        self.strict = strict
        #: Counts this stream's uses of device arrays; ``synced[other]`` is the epoch of
        #: ``other`` that this stream has already waited for on the device.
        self.epoch = 0
        self.synced: dict[StreamCore, int] = {}
        #: The backend's stream; given for a foreign stream (adopted, never destroyed).
        self.raw: Any = backend.new_stream() if raw is None else raw
        self.foreign = raw is not None
        self.label = label
        #: Transfers started here that hold host memory and are not completed:
        #: number -> (kind, array name). Not the transfers themselves, so that a dropped
        #: one is collected (and warns).
        self.pending: dict[int, tuple[str, str]] = {}
        self.closed_at: tuple[str, int] | None = None
        #: Event recorded at close: later cross-stream waits on this stream use it.
        self.tail: Any = None
        #: The capture (nx.capture) this stream is recording into, or None.
        self.capture: CaptureState | None = None

    def check_open(self, op: str, site: tuple[str, int]) -> None:
        if self.closed_at is not None:
            raise StreamClosedError(
                f"cannot {op} on {self.label} at {where(site)}: the stream was closed at "
                f"{where(self.closed_at)}. Enqueue on an open stream (nx.stream())."
            )

    def wait_for(self, other: StreamCore) -> None:
        """Make later work here wait, on the device, for all work enqueued on ``other``
        (which may be a stream of another device of this host: a stream may wait for
        another device's event)."""
        epoch = other.epoch
        if other.closed_at is not None:
            self.backend.wait_event(self.raw, other.tail)
        elif other.capture is not None and other.capture is not self.capture:
            # ``other`` is capturing: its real work is what it had before the capture
            self.backend.wait_event(self.raw, other.capture.before[other])
        else:  # recorded by the other stream's backend: it may be another device's
            event = other.backend.record(other.raw)
            self.backend.wait_event(self.raw, event)
            other.backend.release_event(event)  # the wait captured it; it may be reused
        self.synced[other] = epoch  # committed once the wait is enqueued
        if LOG.isEnabledFor(logging.DEBUG):
            LOG.debug("%s waits on the device for the work enqueued on %s", self.label, other.label)

    def event_now(self) -> Any:
        """An event capturing all work enqueued here so far (the tail once closed; while
        capturing, the event recorded just before the capture began)."""
        if self.closed_at is not None:
            return self.tail
        if self.capture is not None:
            self.capture.kept.add(self)  # handed out: never back to the pool
            return self.capture.before[self]
        return self.backend.record(self.raw)

    def settle(self) -> None:
        """After an operation failed part-way: block until everything enqueued here has
        run, so that nothing the failed operation may have enqueued (a copy the driver
        accepted just before an interrupt) still uses memory about to be given back.
        Error paths only; an interrupt during it is retried, then re-raised. While
        capturing nothing runs: the capture is marked broken instead (it may not
        become a graph), and nothing is synchronized."""
        if self.capture is not None:
            self.capture.broken = True
            return
        for attempt in range(3):
            try:
                self.backend.sync_stream(self.raw)
                return
            except KeyboardInterrupt:
                if attempt == 2:
                    raise
            except Exception:  # a broken context runs nothing more
                return

    # -- ordering: plan (may raise), enqueue the waits, then commit ----------
    def _unsynced_writers(self, order: DeviceOrder) -> list[StreamCore]:
        synced = self.synced
        return [w for w, e in order.writers.items() if w is not self and synced.get(w, -1) < e]

    def _unsynced_readers(self, order: DeviceOrder) -> list[StreamCore]:
        synced = self.synced
        return [r for r, e in order.readers.items() if r is not self and synced.get(r, -1) < e]

    def plan(self, uses: Iterable[tuple[DeviceOrder, bool]]) -> list[StreamCore]:
        """The streams this one must wait for, on the device, before work that reads (or,
        with True, writes) these arrays: the last writers of each (one, or several for an
        array joined from parts written on several streams), and for a write the readers
        since. Same-stream work needs nothing (stream order), nor does work already
        waited for. A strict stream raises instead. Changes nothing."""
        waits: list[StreamCore] = []
        for order, writes in uses:
            ws, rs = order.writers, order.readers
            # the usual case: nothing, or only this stream, touched it since
            if (not ws or (len(ws) == 1 and self in ws)) and (
                not writes or not rs or (len(rs) == 1 and self in rs)
            ):
                continue
            if ws:
                for writer in self._unsynced_writers(order):
                    if self.strict:
                        self.refuse_cross_stream(order, writer, "written")
                    if writer not in waits:
                        waits.append(writer)
            if writes and rs:
                for reader in self._unsynced_readers(order):
                    if self.strict:
                        self.refuse_cross_stream(order, reader, "read")
                    if reader not in waits:
                        waits.append(reader)
        return waits

    def check_strict(self, uses: Iterable[tuple[DeviceOrder, bool]]) -> None:
        """A strict stream refuses before it changes anything."""
        if self.strict:
            self.plan(uses)

    def commit_uses(self, uses: Iterable[tuple[DeviceOrder, bool]]) -> None:
        """Record that work enqueued here used these arrays (after the enqueue succeeded)."""
        for order, writes in uses:
            self.epoch += 1
            if writes:
                order.writers = {self: self.epoch}
                order.readers = {}
            else:  # the writer's own reads count too: a later writer elsewhere waits for them
                order.readers[self] = self.epoch

    def refuse_cross_stream(self, order: DeviceOrder, other: StreamCore, how: str) -> None:
        raise CrossStreamError(
            f"{self.label} is strict and {order.label} was last {how} on {other.label}: "
            "using it here needs a cross-stream wait. Do that work on one stream, or state the "
            f"dependency with `stream.wait_for(other)`, or create this stream without "
            "strict=True to let numbaxfer insert the event wait."
        )


class DeviceOrder:
    """Which streams touched a device array: the last writers and the readers since.

    Shared by an array and the handles lent from it. Usually one writer (the stream of
    the last write); an array joined from parts has the writers of all its parts.
    """

    __slots__ = ("fences", "label", "owner", "readers", "writers")

    def __init__(self, label: str, *, fenced: bool = False) -> None:
        self.label = label
        #: The owning handle's borrow flag (a BorrowFlag), where one array has it.
        self.owner: Any = None
        #: stream -> its epoch at its last write (see ``StreamCore.epoch``)
        self.writers: dict[StreamCore, int] = {}
        #: stream -> its epoch when it read, since the last write
        self.readers: dict[StreamCore, int] = {}
        #: For arrays whose end must be known exactly (a mapping's device view): stream
        #: -> event recorded after the last work there that used the array.
        self.fences: dict[StreamCore, Any] | None = {} if fenced else None

    def streams(self) -> list[StreamCore]:
        """Every stream whose work on the array may still be running."""
        touched = {id(s): s for s in (*self.writers, *self.readers)}
        return list(touched.values())

    def part(self, label: str) -> DeviceOrder:
        """The order of a part of this array: it starts where the whole array stands."""
        new = DeviceOrder(label)
        new.writers = dict(self.writers)
        new.readers = dict(self.readers)
        return new

    @staticmethod
    def joined(label: str, parts: Iterable[DeviceOrder]) -> DeviceOrder:
        """The order of an array joined from parts: every part's writers and readers
        (the latest epoch of each stream), so later work waits for all of them."""
        new = DeviceOrder(label)
        for order in parts:
            for core, epoch in order.writers.items():
                new.writers[core] = max(epoch, new.writers.get(core, epoch))
            for core, epoch in order.readers.items():
                new.readers[core] = max(epoch, new.readers.get(core, epoch))
        return new


def fence_events(order: DeviceOrder) -> list[Any]:
    """One event per stream that touched the array, capturing its work so far."""
    return [core.event_now() for core in order.streams()]


class CaptureState:
    """The bookkeeping of one open capture (``nx.capture``).

    Captured work does not run, so it must not change the real ordering records: while
    a stream captures, its uses of device arrays are planned and committed against a
    *shadow* order per array (the capture's own stream order), and only summarised
    here (``uses``); a replay commits that summary on its stream. ``before`` holds, per
    captured stream, an event recorded just before the capture began: the real work
    there, for streams outside the capture that need to wait for it.
    """

    __slots__ = (
        "before",
        "broken",
        "cores",
        "kept",
        "label",
        "open",
        "params",
        "saved",
        "shadows",
        "token",
        "uses",
    )

    def __init__(self, cores: list[StreamCore], label: str) -> None:
        self.cores = cores
        self.label = label
        self.open = True
        #: An operation failed part-way inside the capture: it may not become a graph.
        self.broken = False
        self.token: Any = None
        self.before: dict[StreamCore, Any] = {}
        #: The streams whose ``before`` event was handed out (kept alive by someone):
        #: the others go back to the backend's pool when the capture ends.
        self.kept: set[StreamCore] = set()
        #: Each captured stream's ``synced`` at the start (restored at the end).
        self.saved: dict[StreamCore, dict[StreamCore, int]] = {}
        self.shadows: dict[int, DeviceOrder] = {}
        #: id(real order) -> (real order, written by the captured work)
        self.uses: dict[int, tuple[DeviceOrder, bool]] = {}
        #: id(root host buffer) -> (transfer number, root handle), in capture order
        self.params: dict[int, tuple[int, Any]] = {}

    def shadow_uses(
        self, uses: Iterable[tuple[DeviceOrder, bool]]
    ) -> list[tuple[DeviceOrder, bool]]:
        """The capture's orders for ``uses`` (checks first: changes nothing if it raises)."""
        given = list(uses)
        for order, _ in given:
            if order.fences is not None:
                raise OwnershipError(
                    f"{order.label} is the device view of a mapping; mapped memory cannot be "
                    f"used in a capture ({self.label}). Use it outside the capture block."
                )
        out = []
        for order, writes in given:
            shadow = self.shadows.get(id(order))
            if shadow is None:
                shadow = self.shadows[id(order)] = DeviceOrder(order.label)
            out.append((shadow, writes))
        return out

    def note(self, uses: Iterable[tuple[DeviceOrder, bool]]) -> None:
        """The captured work (enqueued) uses these arrays."""
        for order, writes in uses:
            old = self.uses.get(id(order))
            self.uses[id(order)] = (order, writes or (old is not None and old[1]))
