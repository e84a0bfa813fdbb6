"""``Pipeline``: stream a large pinned array through the GPU in chunks, safely.

A ring of slots, each a stream with its own device buffers. ``map`` moves the whole
source and destination arrays into one run, then enqueues every chunk at once:
chunk ``i`` goes to slot ``i % slots``: upload, the user's step, download, all on that
slot's stream. Reusing a slot's device buffers for the next chunk is ordered by its
stream, so the host never synchronizes between chunks; uploads on one slot overlap
downloads and kernels on the others. Nobody can touch a chunk in flight: its host
memory belongs to the run until ``run.wait()`` hands both arrays back.

``graph=True``: the first ``map`` of a given size captures the whole map (every chunk,
every slot) as a CUDA graph (``nx.capture``); every map of that size with the same
``step`` replays it, with ``src`` and ``into`` as the graph's two parameters: one graph
launch instead of three calls per chunk.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from typing import Any, Generic, TypeVar, final

import numpy as np

from ._backend import on_device
from ._checks import check_host
from ._device import DeviceArray, device_array
from ._errors import StreamClosedError, where
from ._graph import Graph, capture
from ._host import PinnedArray, layout
from ._ownership import STATE_LOCK, Consumed, Lent, MoveRecord, Owned, Unique, caller_site
from ._stream import Stream, stream
from ._transfer import Transfer
from ._util import check_dtype

__all__ = ["Pipeline", "PipelineRun"]

DT = TypeVar("DT", bound=np.generic)

#: The user's per-chunk device work: ``step(stream, chunk_in, chunk_out)`` enqueues
#: kernels on ``stream`` that read ``chunk_in`` and write ``chunk_out``.
Step = Callable[[Stream[Lent], DeviceArray[Owned, DT], DeviceArray[Owned, DT]], None]


@final
class PipelineRun(Unique, Generic[DT]):
    """One ``Pipeline.map`` in flight. ``wait()`` returns ``(source, destination)``."""

    __slots__ = ("_back_dst", "_back_src", "_dst", "_src")

    _src: Transfer[PinnedArray[Owned, DT]]
    _dst: Transfer[PinnedArray[Owned, DT]]
    #: What the transfers gave back, held here until wait() returns both.
    _back_src: PinnedArray[Owned, DT] | None
    _back_dst: PinnedArray[Owned, DT] | None

    def __init__(self) -> None:
        raise TypeError("PipelineRun is not created directly: Pipeline.map() returns one.")

    @classmethod
    def _create(
        cls, src: Transfer[PinnedArray[Owned, DT]], dst: Transfer[PinnedArray[Owned, DT]]
    ) -> PipelineRun[DT]:
        self = object.__new__(cls)
        self._src = src
        self._dst = dst
        self._back_src = self._back_dst = None
        return self

    def done(self) -> bool:
        """True once every chunk has been downloaded (never blocks)."""
        return self._dst.done()

    def wait(self) -> tuple[PinnedArray[Owned, DT], PinnedArray[Owned, DT]]:
        """Block until the last chunk is home; return both arrays, owned again.
        Interrupted, it may be called again (each array is given back once)."""
        if self._back_dst is None:
            self._back_dst = self._dst.wait()
        if self._back_src is None:
            self._back_src = self._src.wait()
        src, dst = self._back_src, self._back_dst
        try:
            self._back_src = self._back_dst = None
            return src, dst
        except BaseException:  # interrupted before the caller got them: keep them here
            self._back_src, self._back_dst = src, dst
            raise

    def __await__(
        self,
    ) -> Generator[Any, None, tuple[PinnedArray[Owned, DT], PinnedArray[Owned, DT]]]:
        """``src, dst = await run`` (see ``Transfer.__await__``)."""
        return self._wait_async().__await__()

    async def _wait_async(self) -> tuple[PinnedArray[Owned, DT], PinnedArray[Owned, DT]]:
        if self._back_dst is None:
            self._back_dst = await self._dst
        return self.wait()


@final
class Pipeline(Unique, Generic[DT]):
    """A ring of ``slots`` streams, each with an input and an output device buffer of
    ``chunk`` elements. Create once, ``map`` many times; ``close()`` when done.

    ::

        pipe = nx.Pipeline(chunk=16 << 20, dtype=np.float32, slots=3)
        run = pipe.map(src, into=dst, step=lambda s, a, b: s.launch(k, grid, block, a, b))
        src, dst = run.wait()

    ``devices``: None (the current device), a count ``N`` (devices 0 to N - 1) or a list
    of ordinals. Each device gets ``slots`` slots, each with its own stream and device
    buffers on that device; chunks are dealt round-robin across devices first (chunk
    ``i`` to device ``devices[i % len(devices)]``), so consecutive chunks run on
    different GPUs. The step gets the slot's stream: ``stream.device`` says where it
    runs, and the chunk arrays are on that device. The pinned source and destination
    are portable host memory, read and written by every device's copies.
    """

    def __init__(
        self,
        chunk: int,
        dtype: type[DT] | np.dtype[DT],
        *,
        slots: int = 3,
        devices: int | Sequence[int] | None = None,
        graph: bool = False,
    ) -> None:
        for name, value in (("chunk", chunk), ("slots", slots)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value <= 0:
                raise ValueError(f"Pipeline needs an int {name} > 0, got {value!r}")
        self.chunk = int(chunk)
        self.dtype = check_dtype(dtype, "nx.Pipeline()")
        site = caller_site()
        placed = _device_list(devices, site)
        if graph and len(placed) > 1:
            raise ValueError(
                f"nx.Pipeline(graph=True, devices={devices!r}) at {where(site)}: a captured "
                "graph runs on one device. Use graph=True with one device, or one "
                "Pipeline(graph=True) per device."
            )
        # ``slots`` per device, interleaved: consecutive chunks go to different devices.
        where_ = [d for _ in range(slots) for d in placed]
        self._streams: list[Stream[Owned]] = [stream(device=d) for d in where_]
        self._inputs: list[DeviceArray[Owned, DT]] = [
            device_array(self.chunk, self.dtype, device=d) for d in where_
        ]
        self._outputs: list[DeviceArray[Owned, DT]] = [
            device_array(self.chunk, self.dtype, device=d) for d in where_
        ]
        for buf in (*self._inputs, *self._outputs):
            buf._held_by = "a slot buffer of an nx.Pipeline (the pipeline frees it)"
        self._closed_at: tuple[str, int] | None = None
        #: graph=True: the captured map per total size, with the step it recorded
        self._graph_mode = bool(graph)
        self._graphs: dict[int, tuple[Step[DT], Graph]] = {}

    @property
    def slots(self) -> int:
        """How many slots in all (``slots`` per device)."""
        return len(self._streams)

    @property
    def devices(self) -> tuple[int, ...]:
        """The devices the slots are on, in the order chunks are dealt to them."""
        seen: dict[int, None] = {}
        for s in self._streams:
            seen.setdefault(s.device, None)
        return tuple(seen)

    def map(
        self,
        src: Consumed[PinnedArray[Owned, DT]],
        *,
        into: Consumed[PinnedArray[Owned, DT]],
        step: Step[DT],
    ) -> PipelineRun[DT]:
        """Run ``step`` over ``src`` chunk by chunk into ``into``; returns at once.

        ``src`` and ``into`` MOVE into the run (every use raises until ``run.wait()``
        gives them back). Both must be 1-D-compatible pinned arrays of this pipeline's
        dtype and the same size; the last chunk may be shorter than ``chunk`` (the step
        then gets device arrays of that size). If ``step`` (or anything else)
        raises part-way, the chunks already enqueued are waited for on the host and both
        arrays are given back to the caller's handles before the exception propagates.
        Thread-safe: concurrent maps on one pipeline run one after the other.

        With ``graph=True`` the first map of a size captures the step once (its kernels
        and their scalar arguments are then fixed: pass the same ``step`` object, whose
        launches do not change, to replay); later maps of that size replay the graph.
        A different ``step`` for that size captures again.
        """
        site = caller_site()
        if not callable(step):
            raise TypeError(
                f"Pipeline.map() at {where(site)}: step must be a callable "
                "step(stream, chunk_in, chunk_out), not {type(step).__name__}"
            )
        with STATE_LOCK:
            if self._closed_at is not None:
                raise StreamClosedError(
                    f"Pipeline.map() at {where(site)}: the pipeline was closed at "
                    f"{where(self._closed_at)}. Create a new nx.Pipeline."
                )
            first = self._streams[0]
            backend = first._backend
            check_host(src, "Pipeline.map", "src", backend)
            check_host(into, "Pipeline.map", "into", backend)
            for name, arr in (("src", src), ("into", into)):
                if arr.dtype != self.dtype or arr.size != src.size:
                    raise ValueError(
                        f"Pipeline.map(): {name} {arr.label} must have dtype {self.dtype} and "
                        f"the same size as src ({src.size})."
                    )
            for name, arr in (("src", src), ("into", into)):
                if layout(arr._buf) != "C":
                    raise ValueError(
                        f"Pipeline.map(): {name} {arr.label} is Fortran-ordered; the pipeline "
                        "streams arrays in C (row-major) element order."
                    )
            if src is into or np.shares_memory(src._buf, into._buf):
                raise ValueError("Pipeline.map(): src and into must be different arrays")
            src._flag.check_writable("Pipeline.map", site)
            into._flag.check_writable("Pipeline.map() into", site)
            if self._graph_mode:
                return self._map_graph(src, into, step)
            # The arrays move before the step runs: user code inside it cannot touch them.
            src_move = MoveRecord("Pipeline.map", first.label, site)
            dst_move = MoveRecord("Pipeline.map", first.label, site)
            src._flag.move(src_move)
            core = first._core
            try:
                into._flag.move(dst_move)
                try:
                    self._enqueue(src, into, step)
                    self._join()
                    events = (backend.record(core.raw), backend.record(core.raw))
                    return PipelineRun._create(
                        Transfer._start(core, "pipeline", src, events[0], src_move),
                        Transfer._start(core, "pipeline", into, events[1], dst_move),
                    )
                except BaseException:
                    for s in self._streams:  # nothing enqueued may still touch the arrays
                        s._core.settle()
                    core.pending.clear()  # none of this run's transfers was handed out
                    into._flag.unmove()
                    raise
            except BaseException:
                src._flag.unmove()
                raise

    def _map_graph(
        self, src: PinnedArray[Owned, DT], into: PinnedArray[Owned, DT], step: Step[DT]
    ) -> PipelineRun[DT]:
        """Replay the captured map of this size (capturing it first if needed)."""
        cached = self._graphs.get(src.size)
        if cached is None or cached[0] is not step:
            if cached is not None:
                cached[1].close()
                del self._graphs[src.size]
            with capture(*self._streams) as cap:
                state = self._streams[0]._core.capture
                assert state is not None
                # The two whole arrays are the graph's parameters, in this order.
                state.params[id(src._buf)] = (-2, src)
                state.params[id(into._buf)] = (-1, into)
                self._enqueue(src, into, step)
                self._join()
            self._graphs[src.size] = (step, cap.graph)
        graph = self._graphs[src.size][1]
        run = graph.replay(src, into, stream=self._streams[0])
        sent, back = run._transfers
        return PipelineRun._create(sent, back)

    def _enqueue(
        self, src: PinnedArray[Any, DT], into: PinnedArray[Any, DT], step: Step[DT]
    ) -> None:
        flat_in, flat_out = src._buf.reshape(-1), into._buf.reshape(-1)
        chunk = self.chunk
        for i in range(-(-src.size // chunk)):
            k = i % self.slots
            s, din, dout = self._streams[k], self._inputs[k], self._outputs[k]
            backend = s._backend  # the slot's device (pinned memory is portable)
            part = slice(i * chunk, min((i + 1) * chunk, src.size))
            vin, vout = flat_in[part], flat_out[part]
            if vin.size < chunk:  # the ragged last chunk: the first rows of the slot buffers
                din, dout = self._head(din, vin.size), self._head(dout, vin.size)
            backend.copy_htod(s._core.raw, din._buf, backend.host_memory(vin))
            with s.lend() as lent:
                step(lent, din, dout)
            backend.copy_dtoh(s._core.raw, backend.host_memory(vout), dout._buf)

    @staticmethod
    def _head(buf: DeviceArray[Owned, DT], n: int) -> DeviceArray[Owned, DT]:
        """The first ``n`` elements of a slot buffer, sharing its memory and ordering."""
        head: DeviceArray[Owned, DT] = DeviceArray._adopt(
            buf._backend, buf._backend.device_view(buf._buf, 0, n), (n,), buf.dtype, buf.label
        )
        head._order = buf._order
        head._held_by = buf._held_by
        return head

    def _join(self) -> None:
        """Make slot 0's stream follow every slot's work (device-side event waits)."""
        first = self._streams[0]._core
        for other in self._streams[1:]:
            first.wait_for(other._core)

    def close(self) -> None:
        """Close the slot streams (work already enqueued still runs to completion).
        Refused while a run is not completed (its wait() gives the arrays back)."""
        site = caller_site()
        with STATE_LOCK:
            if self._closed_at is None:
                for s in self._streams:
                    if not s.closed:
                        s.close()
                for _, graph in self._graphs.values():
                    graph.close()
                self._graphs.clear()
                self._closed_at = site


def _device_list(devices: int | Sequence[int] | None, site: tuple[str, int]) -> list[int | None]:
    """``devices=`` of a Pipeline: None (the current device), a count N (devices 0 to
    N - 1) or ordinals, each checked (nothing is allocated before)."""
    op = "nx.Pipeline(devices=...)"
    if devices is None:
        return [None]
    if isinstance(devices, (int, np.integer)) and not isinstance(devices, bool):
        if devices <= 0:
            raise ValueError(f"{op} at {where(site)}: a device count is >= 1, not {devices}")
        listed: list[object] = list(range(int(devices)))
    elif isinstance(devices, Sequence) and not isinstance(devices, (str, bytes)):
        listed = list(devices)
        if not listed:
            raise ValueError(f"{op} at {where(site)}: name at least one device")
    else:
        raise TypeError(
            f"{op} at {where(site)}: devices= is a count, a list of device ordinals or "
            f"None, not {devices!r}"
        )
    ordinals = [on_device(d, op, site).device for d in listed]
    if len(set(ordinals)) != len(ordinals):
        raise ValueError(
            f"{op} at {where(site)}: devices {listed!r} names a device twice; for more slots "
            "per device pass slots=."
        )
    return list(ordinals)
