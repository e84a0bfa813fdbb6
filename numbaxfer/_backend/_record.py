"""Graph capture for the backends without driver graphs: numba's simulator and the
emulator. A capture records the copies and launches enqueued on its streams instead of
running them; a replay enqueues them again, in capture order, on the replay stream,
with each host copy's memory looked up in that replay's host buffers.

Capture order is a valid order for the whole graph: every dependency inside a capture
(stream order, an event wait between captured streams) runs from earlier-enqueued to
later-enqueued work. The emulator runs a replay's operations lazily, like any others,
so a host access that races a replay shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = ["GraphRecorder", "RecordedCapture", "RecordedGraph"]


class RecordedCapture:
    """One capture in progress: the streams it records and what was enqueued there."""

    __slots__ = ("ops", "streams")

    def __init__(self, streams: Sequence[Any]) -> None:
        self.streams = [id(s) for s in streams]
        #: ("htod", dst, host) | ("dtoh", host, src) | ("dtod", dst, src)
        #: | ("launch", kernel, griddim, blockdim, args), in enqueue order
        self.ops: list[tuple[Any, ...]] = []


class RecordedGraph:
    """A finished capture: its operations, and for each host copy the parameter whose
    memory it touches and the byte offset there (``slots[i]``, None for device-only
    operations)."""

    __slots__ = ("ops", "slots")

    def __init__(self, ops: list[tuple[Any, ...]], slots: list[tuple[int, int] | None]) -> None:
        self.ops = ops
        self.slots = slots


def _span(buf: NDArray[Any]) -> tuple[int, int]:
    return int(buf.__array_interface__["data"][0]), int(buf.nbytes)


def _order(buf: NDArray[Any]) -> str:
    return "F" if buf.flags.f_contiguous and not buf.flags.c_contiguous else "C"


def _view_at(base: NDArray[Any], offset: int, like: NDArray[Any]) -> NDArray[Any]:
    """The bytes of ``base`` at ``offset`` seen with ``like``'s dtype, shape and order."""
    flat = base.reshape(-1, order="A").view(np.uint8)
    part = flat[offset : offset + like.nbytes].view(like.dtype)
    return part.reshape(like.shape, order=_order(like))  # type: ignore[call-overload,no-any-return]


class GraphRecorder:
    """The captures open on one backend, keyed by the identity of their streams."""

    __slots__ = ("capturing",)

    def __init__(self) -> None:
        self.capturing: dict[int, RecordedCapture] = {}

    def begin(self, streams: Sequence[Any]) -> RecordedCapture:
        busy = [s for s in streams if id(s) in self.capturing]
        if busy:
            raise RuntimeError(f"a capture is already recording on {busy[0]!r}")
        capture = RecordedCapture(streams)
        for s in streams:
            self.capturing[id(s)] = capture
        return capture

    def take(self, stream: Any, op: tuple[Any, ...]) -> bool:
        """Record ``op`` if ``stream`` is capturing (then it must not run now)."""
        capture = self.capturing.get(id(stream))
        if capture is None:
            return False
        capture.ops.append(op)
        return True

    def is_capturing(self, stream: Any) -> bool:
        return id(stream) in self.capturing

    def _close(self, capture: RecordedCapture) -> None:
        for key in capture.streams:
            if self.capturing.get(key) is capture:
                del self.capturing[key]

    def abort(self, capture: RecordedCapture | None, streams: Sequence[Any]) -> None:
        if capture is not None:
            self._close(capture)
        for s in streams:
            self.capturing.pop(id(s), None)

    def end(self, capture: RecordedCapture, hosts: Sequence[NDArray[Any]]) -> RecordedGraph:
        """Finish ``capture``; ``hosts`` are the parameters' memory as captured."""
        self._close(capture)
        spans = [_span(h) for h in hosts]
        slots: list[tuple[int, int] | None] = []
        for op in capture.ops:
            host = op[2] if op[0] == "htod" else op[1] if op[0] == "dtoh" else None
            if host is None:
                slots.append(None)
                continue
            ptr, _ = _span(host)
            for i, (base, size) in enumerate(spans):
                if base <= ptr < base + size:
                    slots.append((i, ptr - base))
                    break
            else:
                raise RuntimeError(
                    "numbaxfer: a captured copy touches host memory that is no parameter of "
                    "the graph (an internal error)"
                )
        return RecordedGraph(list(capture.ops), slots)

    @staticmethod
    def bind(graph: RecordedGraph, hosts: Sequence[NDArray[Any]]) -> list[tuple[Any, ...]]:
        """The graph's operations with each host copy moved into ``hosts``' memory."""
        out: list[tuple[Any, ...]] = []
        for op, slot in zip(graph.ops, graph.slots, strict=True):
            if slot is None:
                out.append(op)
                continue
            index, offset = slot
            if op[0] == "htod":
                out.append(("htod", op[1], _view_at(hosts[index], offset, op[2])))
            else:
                out.append(("dtoh", _view_at(hosts[index], offset, op[1]), op[2]))
        return out
