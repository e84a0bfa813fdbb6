"""numba-cuda backend: the GPU, or numba's simulator under ``NUMBA_ENABLE_CUDASIM=1``.

Copies go through numba's device-array methods with an explicit stream; events are
pooled (creating one costs ~14 us through numba, recording ~2.6 us). Nothing here
synchronizes more than the one event or stream it is asked to. On a GPU the fast path
(:class:`BindingsBackend`) calls the driver through cuda.bindings, and launches kernels
that numba has compiled for the arguments' types directly (see ``_Direct``): their
arguments packed as numba packs them, once per array, then one ``cuLaunchKernel``.
"""

from __future__ import annotations

import ctypes
import os
import struct
import threading
import weakref
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import Any, Final, Literal

import numpy as np
from numba import cuda
from numba.cuda.core import config as numba_cuda_config
from numpy.typing import NDArray

from .._guard import alloc_pages, guard_enabled, lifted
from ._record import GraphRecorder, RecordedCapture, RecordedGraph

__all__ = ["BindingsBackend", "NumbaBackend"]


class NumbaBackend:
    """The backend numbaxfer uses by default.

    One object per device (``on_device``): the first is the thread's current device
    when it was made. While only that one exists nothing here switches contexts; once
    work is placed on a second device, every call that needs a context (allocation,
    stream and event creation, kernel launch) makes its own device's context current
    for the call (numba's ``with cuda.gpus[n]``). Copies and event records name their
    stream, which belongs to its context, so they need no switch.
    """

    name = "numba"

    def __init__(self, device: int | None = None, siblings: dict[int, Any] | None = None) -> None:
        self.simulated: bool = bool(numba_cuda_config.ENABLE_CUDASIM)
        if not self.simulated and not cuda.is_available():
            raise RuntimeError(
                "numbaxfer: no CUDA GPU is available to numba-cuda. On a machine without "
                "a GPU run with NUMBA_ENABLE_CUDASIM=1 (numba's simulator) or "
                "NUMBAXFER_BACKEND=emulator (numbaxfer's lazy CPU emulator)."
            )
        #: The simulator runs every copy at once.
        self.synchronous = self.simulated
        self._events: list[Any] = []
        if device is None:
            device = 0 if self.simulated else int(cuda.get_current_device().id)
        self.device: int = device
        #: device -> its backend object, shared by all of them (the family)
        self._siblings: dict[int, Any] = {} if siblings is None else siblings
        self._siblings[device] = self
        self.family: object = self._siblings
        #: (this device, other device) -> peer access available and enabled
        self._peers: dict[tuple[int, int], bool] = {}
        #: With several devices: event key -> (event, the backend whose pool it returns
        #: to), shared by the family: an event belongs to one context, and may be
        #: released through another device's handle (a transfer's scope, a fence).
        self._owners: dict[int, tuple[Any, Any]] = {}
        #: Simulator: captures are recorded here. GPU: the open driver captures by
        #: stream identity, each keeping alive what its copies and launches use.
        self._graphs = GraphRecorder()
        self._captures: dict[int, _DriverCapture] = {}

    def describe(self) -> str:
        if self.simulated:
            return "numba-cuda simulator (NUMBA_ENABLE_CUDASIM=1; copies are synchronous)"
        return f"numba-cuda on {cuda.gpus[self.device].name} (device {self.device})"

    # -- devices -------------------------------------------------------------
    def device_count(self) -> int:
        return 1 if self.simulated else len(cuda.gpus)

    def on_device(self, device: int) -> Any:
        found = self._siblings.get(device)
        if found is None:
            found = type(self)(device, self._siblings)
            found._peers, found._owners = self._peers, self._owners
        return found

    def buffer_device(self, device_buffer: Any) -> int:
        if self.simulated:
            return self.device
        from cuda.bindings import driver as drv

        attribute = drv.CUpointer_attribute.CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL
        err, ordinal = drv.cuPointerGetAttribute(attribute, _memory(device_buffer)[0])
        return self.device if err else int(ordinal)

    def stream_device(self, stream: Any) -> int:
        if self.simulated:
            return self.device
        from cuda.bindings import driver as drv

        handle = getattr(stream, "handle", None)
        if handle is None:  # a _StreamHandle: numba's stream inside
            handle = stream.stream.handle
        err, ctx = drv.cuStreamGetCtx(handle)
        if err:
            return self.device
        for n in range(self.device_count()):
            if int(_ctx_handle(cuda.gpus[n].get_primary_context())) == int(ctx):
                return n
        return self.device

    def _here(self) -> AbstractContextManager[Any]:
        """This device's context made current for a call, where it may not be."""
        if len(self._siblings) == 1:
            return nullcontext()
        gpu: AbstractContextManager[Any] = cuda.gpus[self.device]
        return gpu

    def peer_route(self, other: Any) -> bool:
        if self.simulated or getattr(other, "family", None) is not self.family:
            return False
        key = (self.device, other.device)
        known = self._peers.get(key)
        if known is None:
            known = self._peers[key] = self._enable_peer(other)
        return known

    def _enable_peer(self, other: Any) -> bool:
        """Peer access both ways between the two devices, where the hardware allows it
        (cuDeviceCanAccessPeer); enabled once per pair (cuCtxEnablePeerAccess)."""
        from cuda.bindings import driver as drv

        def can(a: int, b: int) -> bool:
            err, ok = drv.cuDeviceCanAccessPeer(a, b)
            return not err and bool(ok)

        if not (can(self.device, other.device) and can(other.device, self.device)):
            return False
        for here, there in ((self, other), (other, self)):
            with cuda.gpus[here.device]:
                ctx_there = cuda.gpus[there.device].get_primary_context()
                (err,) = drv.cuCtxEnablePeerAccess(_ctx_handle(ctx_there), 0)
                if err and err != drv.CUresult.CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED:
                    return False
        return True

    def copy_peer(
        self, stream: Any, dst: Any, dst_backend: Any, src: Any, src_backend: Any
    ) -> None:
        from cuda.bindings import driver as drv

        dst_mem, src_mem = _memory(dst), _memory(src)
        dst_ctx = _ctx_handle(cuda.gpus[dst_backend.device].get_primary_context())
        src_ctx = _ctx_handle(cuda.gpus[src_backend.device].get_primary_context())
        (err,) = drv.cuMemcpyPeerAsync(
            dst_mem[0], dst_ctx, src_mem[0], src_ctx, dst_mem[1], stream.handle
        )
        if err:
            raise RuntimeError(f"numbaxfer: cuMemcpyPeerAsync failed: {err!r}")

    # -- memory --------------------------------------------------------------
    def alloc_pinned(
        self, shape: tuple[int, ...], dtype: np.dtype[Any], order: Literal["C", "F"] = "C"
    ) -> NDArray[Any]:
        if self.simulated and guard_enabled():  # the simulator's is ordinary numpy memory
            return alloc_pages(shape, dtype, order)
        if self.simulated:
            return cuda.pinned_array(shape, dtype=dtype, order=order)
        return _portable_pinned(shape, dtype, order)  # cuMemHostAlloc: page-aligned

    def alloc_device(
        self, shape: tuple[int, ...], dtype: np.dtype[Any], order: Literal["C", "F"] = "C"
    ) -> Any:
        with self._here():
            return cuda.device_array(shape, dtype=dtype, order=order)

    def host_memory(self, buf: NDArray[Any]) -> Any:
        return buf

    def device_view(self, device_buffer: Any, start: int, stop: int) -> Any:
        return device_buffer[start:stop]

    def alloc_mapped(self, shape: tuple[int, ...], dtype: np.dtype[Any]) -> tuple[Any, Any]:
        """Mapped host memory: (host numpy array, device buffer) over the same bytes."""
        if self.simulated and guard_enabled():
            from numba.cuda.simulator.cudadrv.devicearray import FakeCUDAArray

            host = alloc_pages(shape, dtype)
            return host, FakeCUDAArray(host)  # type: ignore[no-untyped-call]
        mapped: Any = cuda.mapped_array(shape, dtype=dtype)
        if self.simulated:  # the simulator's FakeCUDAArray wraps a numpy array
            return mapped._ary, mapped
        # np.ndarray.view, not numba's DeviceNDArray.view that MappedNDArray inherits first
        return np.ndarray.view(mapped, np.ndarray), self._device_token(mapped)

    def _device_token(self, array: Any) -> Any:
        return array

    def pin(self, array: NDArray[Any]) -> Any:
        """Page-lock ``array`` in place; unpinned when the returned object is dropped."""
        if self.simulated:
            return object()
        return _PortablePin(array)

    def map_in_place(self, array: NDArray[Any]) -> tuple[Any, Any]:
        """Pin and map ``array`` in place (numba's ``cuda.mapped``), without its
        context manager: the pin lives as long as the returned object."""
        if self.simulated:
            from numba.cuda.simulator.cudadrv.devicearray import FakeCUDAArray

            return object(), FakeCUDAArray(array)  # type: ignore[no-untyped-call]
        from numba.cuda.cudadrv import devicearray, driver

        pm = cuda.current_context().mempin(
            array, driver.host_pointer(array), driver.host_memory_size(array), mapped=True
        )
        device = devicearray.from_array_like(array, gpu_data=pm)  # type: ignore[arg-type]
        return pm, self._device_token(device)

    def kernel_arg(self, device_buffer: Any) -> Any:
        return device_buffer

    def array_interface(self, device_buffer: Any) -> dict[str, Any]:
        if self.simulated:
            raise TypeError(
                "__cuda_array_interface__ needs a real GPU: numba's simulator has no device "
                "pointers to share."
            )
        return dict(self.kernel_arg(device_buffer).__cuda_array_interface__)

    def stream_handle(self, stream: Any) -> int | None:
        if self.simulated:
            return None
        return int(stream.handle) or None

    def wait_event_handle(self, stream_handle: int, event: Any) -> None:
        self.wait_event(cuda.external_stream(stream_handle), event)

    def device_ordinal(self) -> int:
        return self.device

    def adopt_stream(self, handle: int) -> Any:
        if self.simulated:
            raise TypeError("numba's simulator has no driver streams to adopt")
        return cuda.external_stream(handle)

    def adopt_device(self, obj: Any) -> tuple[Any, tuple[int, ...], np.dtype[Any], int | None]:
        array, stream = _foreign_array(obj, self.simulated)
        return self._device_token(array), tuple(array.shape), np.dtype(array.dtype), stream

    # -- streams -------------------------------------------------------------
    def new_stream(self) -> Any:
        with self._here():
            return cuda.stream()

    def close_stream(self, stream: Any) -> None:
        # numba destroys the stream when the object is collected; the driver lets
        # queued work finish first (cuStreamDestroy does not wait, nor cancel).
        del stream

    def sync_stream(self, stream: Any) -> None:
        stream.synchronize()

    # -- work ----------------------------------------------------------------
    # On the simulator the CPU does the copies and runs the kernels, at once: guard
    # mode's protection of the host memory they touch is lifted around them (a chained
    # download writes memory its upload protected; a kernel reads a mapped array).
    def copy_htod(self, stream: Any, dst: Any, src: NDArray[Any]) -> None:
        if self._captures:
            self._keep(stream, dst, src)
        if self._graphs.capturing and self._graphs.take(stream, ("htod", dst, src)):
            return
        if self.simulated:
            lifted((src,), lambda: dst.copy_to_device(src, stream=stream), writes=False)
        else:
            dst.copy_to_device(src, stream=stream)

    def copy_dtoh(self, stream: Any, dst: NDArray[Any], src: Any) -> None:
        if self._captures:
            self._keep(stream, dst, src)
        if self._graphs.capturing and self._graphs.take(stream, ("dtoh", dst, src)):
            return
        if self.simulated:
            lifted((dst,), lambda: src.copy_to_host(dst, stream=stream))
        else:
            src.copy_to_host(dst, stream=stream)

    def copy_dtod(self, stream: Any, dst: Any, src: Any) -> None:
        if self._captures:
            self._keep(stream, dst, src)
        if self._graphs.capturing and self._graphs.take(stream, ("dtod", dst, src)):
            return
        dst.copy_to_device(src, stream=stream)

    def launch(
        self,
        stream: Any,
        kernel: Any,
        griddim: int | tuple[int, ...],
        blockdim: int | tuple[int, ...],
        args: Sequence[Any],
    ) -> None:
        if self._captures:
            self._keep(stream, kernel, tuple(args))
        if self._graphs.capturing and self._graphs.take(
            stream, ("launch", kernel, griddim, blockdim, tuple(args))
        ):
            return
        if self.simulated:
            lifted(args, lambda: kernel[griddim, blockdim, stream](*args))
        else:
            with self._here():
                kernel[griddim, blockdim, stream](*args)

    # -- events --------------------------------------------------------------
    def record(self, stream: Any) -> Any:
        if self._events:
            event = self._events.pop()
        elif self.simulated:  # the simulator's event() takes no arguments
            event = cuda.event()
        else:
            with self._here():  # an event belongs to the context it was created in
                event = cuda.event(timing=False)
            if len(self._siblings) > 1:
                self._owners[id(event)] = (event, self)
        event.record(stream)
        return event

    def query(self, event: Any) -> bool:
        if self.simulated:  # the simulator's Event has no query(): all work is done
            return True
        return bool(event.query())

    def sync_event(self, event: Any) -> None:
        event.synchronize()

    def wait_event(self, stream: Any, event: Any) -> None:
        event.wait(stream)

    def release_event(self, event: Any) -> None:
        pool = self._events
        if len(self._siblings) > 1:  # back to the pool of the device that made it
            owner = self._owners.get(self._event_key(event))
            if owner is not None:
                pool = owner[1]._events
        if len(pool) < 256:
            pool.append(event)

    def _event_key(self, event: Any) -> int:
        return id(event)

    # -- graphs --------------------------------------------------------------
    # The simulator records a capture and runs it again at each replay (_record). On a
    # GPU: CUDA stream capture (relaxed mode) on the origin stream, the others forked
    # from it by an event and joined back at the end; one cuGraphLaunch per replay,
    # with the memcpy nodes that touch a parameter re-pointed when its buffer changes.
    def begin_capture(self, streams: Sequence[Any]) -> Any:
        if self.simulated:
            return self._graphs.begin(streams)
        self._ensure_context()
        drv = _driver()
        origin = int(streams[0].handle)
        relaxed = drv.CUstreamCaptureMode.CU_STREAM_CAPTURE_MODE_RELAXED
        _check(drv.cuStreamBeginCapture(origin, relaxed)[0], "cuStreamBeginCapture")
        capture = _DriverCapture(streams)
        try:
            fork = _new_event(drv)
            capture.events.append(fork)
            _check(drv.cuEventRecord(fork, origin)[0], "cuEventRecord")
            for s in streams[1:]:
                _check(drv.cuStreamWaitEvent(int(s.handle), fork, 0)[0], "cuStreamWaitEvent")
            for s in streams:
                self._captures[id(s)] = capture
        except BaseException:
            graph = self._end_driver_capture(capture, join=False)
            if graph is not None:
                drv.cuGraphDestroy(graph)
            raise
        return capture

    def _ensure_context(self) -> None:
        cuda.current_context()

    def _keep(self, stream: Any, *objs: Any) -> None:
        capture = self._captures.get(id(stream))
        if capture is not None:
            capture.keep.append(objs)

    def _host_span(self, token: Any) -> tuple[int, int]:
        """(pointer, size) of a ``host_memory`` token."""
        return int(token.ctypes.data), int(token.nbytes)

    def _end_driver_capture(self, capture: _DriverCapture, join: bool) -> Any:
        """End the driver capture (joining the forked streams first); the graph, or
        None where the driver had invalidated it."""
        drv = _driver()
        for s in capture.streams:
            self._captures.pop(id(s), None)
        origin = int(capture.streams[0].handle)
        try:
            if join:
                for s in capture.streams[1:]:
                    ev = _new_event(drv)
                    capture.events.append(ev)
                    _check(drv.cuEventRecord(ev, int(s.handle))[0], "cuEventRecord")
                    _check(drv.cuStreamWaitEvent(origin, ev, 0)[0], "cuStreamWaitEvent")
        finally:
            err, graph = drv.cuStreamEndCapture(origin)
            for ev in capture.events:
                drv.cuEventDestroy(ev)
            capture.events.clear()
        if err:
            if graph is not None and int(graph):
                drv.cuGraphDestroy(graph)
            if join:
                _check(err, "cuStreamEndCapture")
            return None
        return graph

    def end_capture(self, capture: Any, hosts: Sequence[Any]) -> Any:
        if self.simulated:
            assert isinstance(capture, RecordedCapture)
            return self._graphs.end(capture, hosts)
        assert isinstance(capture, _DriverCapture)
        self._ensure_context()
        drv = _driver()
        graph = self._end_driver_capture(capture, join=True)
        try:
            err, exe = drv.cuGraphInstantiate(graph, 0)
            _check(err, "cuGraphInstantiate")
        except BaseException:
            drv.cuGraphDestroy(graph)
            raise
        made = _DriverGraph(graph, exe, capture.keep, [self._host_span(h) for h in hosts])
        try:
            made.find_copies(drv)
            err, made.ctx = drv.cuCtxGetCurrent()
            _check(err, "cuCtxGetCurrent")
        except BaseException:
            made.destroy(drv)
            raise
        return made

    def abort_capture(self, capture: Any, streams: Sequence[Any]) -> None:
        if self.simulated:
            self._graphs.abort(capture, streams)
            return
        drv = _driver()
        if capture is None:  # begin_capture was interrupted: end what is open there
            err, status = drv.cuStreamIsCapturing(int(streams[0].handle))
            if err or status == drv.CUstreamCaptureStatus.CU_STREAM_CAPTURE_STATUS_NONE:
                for s in streams:
                    self._captures.pop(id(s), None)
                return
            capture = _DriverCapture(streams)
        assert isinstance(capture, _DriverCapture)
        graph = self._end_driver_capture(capture, join=False)
        if graph is not None:
            drv.cuGraphDestroy(graph)

    def graph_launch(self, graph: Any, stream: Any, hosts: Sequence[Any]) -> None:
        if self.simulated:
            assert isinstance(graph, RecordedGraph)
            for op in self._graphs.bind(graph, hosts):
                if op[0] == "htod":
                    self.copy_htod(stream, op[1], op[2])
                elif op[0] == "dtoh":
                    self.copy_dtoh(stream, op[1], op[2])
                elif op[0] == "dtod":
                    self.copy_dtod(stream, op[1], op[2])
                else:
                    self.launch(stream, op[1], op[2], op[3], op[4])
            return
        assert isinstance(graph, _DriverGraph)
        self._ensure_context()
        drv = _driver()
        for i, token in enumerate(hosts):
            graph.bind(drv, i, self._host_span(token)[0])
        _check(drv.cuGraphLaunch(graph.exe, int(stream.handle))[0], "cuGraphLaunch")

    def graph_destroy(self, graph: Any) -> None:
        if isinstance(graph, _DriverGraph):
            graph.destroy(_driver())


def _driver() -> Any:
    from cuda.bindings import driver

    return driver


def _check(err: Any, what: str) -> None:
    if err:
        _, text = _driver().cuGetErrorString(err)
        name = text.decode() if isinstance(text, bytes) else str(text)
        raise RuntimeError(f"numbaxfer: {what} failed: {err!r}: {name}")


def _new_event(drv: Any) -> Any:
    err, event = drv.cuEventCreate(drv.CUevent_flags.CU_EVENT_DISABLE_TIMING)
    _check(err, "cuEventCreate")
    return event


def _addr(value: Any) -> int:
    try:
        return int(value)
    except TypeError:
        return int(value.getPtr())


class _DriverCapture:
    """A CUDA stream capture in progress (GPU)."""

    __slots__ = ("events", "keep", "streams")

    def __init__(self, streams: Sequence[Any]) -> None:
        self.streams = list(streams)
        self.events: list[Any] = []
        #: Device buffers, kernels and host tokens the captured work uses: the graph
        #: keeps them alive (its nodes hold raw pointers).
        self.keep: list[Any] = []


#: The pointer fields of a CUDA_MEMCPY3D, with the offset field that goes with each.
_COPY_FIELDS = (
    ("srcHost", "srcXInBytes"),
    ("srcDevice", "srcXInBytes"),
    ("dstHost", "dstXInBytes"),
    ("dstDevice", "dstXInBytes"),
)


class _DriverGraph:
    """An instantiated CUDA graph and, for each host parameter, the memcpy nodes whose
    host end lies inside it (node, its parameters, the field, the captured value)."""

    __slots__ = ("bound", "ctx", "exe", "graph", "keep", "slots", "spans")

    def __init__(self, graph: Any, exe: Any, keep: list[Any], spans: list[tuple[int, int]]):
        self.graph = graph
        self.exe = exe
        self.keep = keep
        self.spans = spans
        self.slots: list[list[tuple[Any, Any, str, int]]] = [[] for _ in spans]
        #: The base pointer each parameter's nodes point into now (None: unknown).
        self.bound: list[int | None] = [base for base, _ in spans]
        self.ctx: Any = None

    def find_copies(self, drv: Any) -> None:
        err, _, count = drv.cuGraphGetNodes(self.graph, 0)
        _check(err, "cuGraphGetNodes")
        err, nodes, _ = drv.cuGraphGetNodes(self.graph, count)
        _check(err, "cuGraphGetNodes")
        memcpy = drv.CUgraphNodeType.CU_GRAPH_NODE_TYPE_MEMCPY
        for node in nodes:
            err, kind = drv.cuGraphNodeGetType(node)
            _check(err, "cuGraphNodeGetType")
            if kind != memcpy:
                continue
            err, params = drv.cuGraphMemcpyNodeGetParams(node)
            _check(err, "cuGraphMemcpyNodeGetParams")
            for field, offset in _COPY_FIELDS:
                value = _addr(getattr(params, field))
                if not value:
                    continue
                at = value + int(getattr(params, offset))
                for i, (base, size) in enumerate(self.spans):
                    if base <= at < base + size:
                        self.slots[i].append((node, params, field, value - base))

    def bind(self, drv: Any, index: int, base: int) -> None:
        """Point parameter ``index``'s copies into the buffer at ``base``."""
        if self.bound[index] == base:
            return
        self.bound[index] = None  # interrupted half-way: the next replay redoes it all
        for node, params, field, rel in self.slots[index]:
            setattr(params, field, base + rel)
            err = drv.cuGraphExecMemcpyNodeSetParams(self.exe, node, params, self.ctx)[0]
            _check(err, "cuGraphExecMemcpyNodeSetParams")
        self.bound[index] = base

    def destroy(self, drv: Any) -> None:
        exe, graph, self.exe, self.graph = self.exe, self.graph, None, None
        if exe is not None:
            drv.cuGraphExecDestroy(exe)
        if graph is not None:
            drv.cuGraphDestroy(graph)


def _foreign_array(obj: Any, simulated: bool) -> tuple[Any, int | None]:
    """(numba device array over ``obj``'s memory, the stream its producer named)."""
    if simulated:
        from numba.cuda.simulator.cudadrv.devicearray import FakeCUDAArray

        if isinstance(obj, FakeCUDAArray):
            return obj, None
        raise TypeError(
            f"numba's simulator adopts only its own device arrays, not {type(obj).__name__}"
        )
    if isinstance(obj, np.ndarray):
        raise TypeError(
            "cannot adopt a numpy array: it is host memory. Upload it into an nx.device_array "
            "(pinned first), or adopt a device array."
        )
    if cuda.is_cuda_array(obj):
        desc = dict(obj.__cuda_array_interface__)
        stream = desc.get("stream")
        desc["stream"] = None  # ordered on the device by numbaxfer, not synced on the host
        array = cuda.from_cuda_array_interface(desc, owner=obj, sync=False)
        return array, (int(stream) if stream not in (None, 1, 2) else None)
    device = getattr(obj, "__dlpack_device__", None)
    if hasattr(obj, "__dlpack__") and device is not None:
        kind = int(device()[0])
        if kind != 2:  # kDLCUDA: device memory (not host, pinned host or another vendor)
            raise TypeError(
                f"cannot adopt {type(obj).__name__}: its DLPack device type is {kind}, not "
                "CUDA device memory (2)."
            )
        import importlib

        smv: Any = importlib.import_module("cuda.core.utils").StridedMemoryView
        view: Any = smv.from_dlpack(obj, stream_ptr=-1)
        itemsize = np.dtype(view.dtype).itemsize
        strides = None if view.strides is None else tuple(s * itemsize for s in view.strides)
        desc = {
            "shape": tuple(view.shape),
            "strides": strides,
            "typestr": np.dtype(view.dtype).str,
            "data": (int(view.ptr), bool(view.readonly)),
            "version": 3,
            "stream": None,
        }
        return cuda.from_cuda_array_interface(desc, owner=(obj, view), sync=False), None
    raise TypeError(
        f"cannot adopt {type(obj).__name__}: it has neither __cuda_array_interface__ nor __dlpack__"
    )


def _portable_pinned(
    shape: tuple[int, ...], dtype: np.dtype[Any], order: Literal["C", "F"]
) -> NDArray[Any]:
    """``cuda.pinned_array`` with CU_MEMHOSTALLOC_PORTABLE: page-locked for every
    context of the process, so any device's copies may use it."""
    nbytes = max(1, int(np.prod(shape, dtype=np.int64))) * dtype.itemsize
    buffer: Any = cuda.current_context().memhostalloc(nbytes, portable=True)
    return np.ndarray(shape=shape, dtype=dtype, order=order, buffer=buffer)


class _PortablePin:
    """``array`` page-locked in place for every context (cuMemHostRegister with
    CU_MEMHOSTREGISTER_PORTABLE); unregistered when this object is collected."""

    __slots__ = ("__weakref__", "array")

    def __init__(self, array: NDArray[Any]) -> None:
        from cuda.bindings import driver as drv

        cuda.current_context()  # a context must be current to register
        ptr, size = int(array.ctypes.data), int(array.nbytes)
        flags = drv.CU_MEMHOSTREGISTER_PORTABLE
        (err,) = drv.cuMemHostRegister(ptr, size, flags)
        if err:
            raise RuntimeError(f"numbaxfer: cuMemHostRegister (portable) failed: {err!r}")
        self.array = array  # the memory stays allocated while pinned
        weakref.finalize(self, drv.cuMemHostUnregister, ptr)


def _ctx_handle(ctx: Any) -> Any:
    """The driver handle of a numba context (a ``CUcontext``)."""
    return ctx.handle


def _memory(buf: Any) -> tuple[int, int]:
    """(device pointer, bytes) of a numba device array or a ``_DeviceMemory``."""
    if isinstance(buf, _DeviceMemory):
        return buf.ptr, buf.nbytes
    return int(buf.__cuda_array_interface__["data"][0]), int(buf.nbytes)


class _DeviceMemory:
    """A numba device array and its raw pointer, looked up once at allocation; for the
    direct launch path, its numba type and its kernel-argument bytes, made on first use."""

    __slots__ = ("array", "nbytes", "ntype", "ptr", "seg")

    def __init__(self, array: Any) -> None:
        self.array = array
        self.ptr = int(array.__cuda_array_interface__["data"][0])
        self.nbytes = int(array.nbytes)
        self.seg: bytes | None = None
        self.ntype: Any = None

    def prepare(self) -> Any:
        """The numba type of the array (what numba's dispatcher types it as) and its
        flattened kernel argument, packed once: see :func:`array_argument`."""
        from numba.cuda.typing.typeof import Purpose, typeof

        self.ntype = typeof(self.array, Purpose.argument)
        self.seg = array_argument(self.array)
        return self.ntype


class _StreamHandle:
    """A numba stream and its driver handle."""

    __slots__ = ("handle", "stream")

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.handle = stream.handle


# -- the direct launch path ----------------------------------------------------------
# numba-cuda's _Kernel.launch flattens each argument (_Kernel._prepare_args) and hands
# the list to cuda.core's launch, which packs a Python int as intptr_t and a ctypes
# scalar as its bytes. An array of numba type Array(dtype, ndim, layout) becomes
# meminfo (0), parent (0), nitems, itemsize, data pointer, shape[ndim], strides[ndim]:
# 5 + 2*ndim intptr_t. Integer scalars are ctypes.c_<type>(v), float32/float64
# ctypes.c_float/c_double. The direct path packs exactly those bytes, each parameter in
# its own 8-byte slot (cuLaunchKernel takes one pointer per parameter, and copies the
# values before it returns), and launches the overload numba compiled for the same
# argument types. Everything else (bool, complex, records, tuples, enums, datetimes,
# pointers, extensions, debug and cooperative kernels, launch-config-specialized
# dispatchers) goes through numba's own dispatcher, and so does the first launch of an
# overload (numba compiles it) and of each new (griddim, blockdim) (numba validates the
# dimensions, and issues its low-occupancy warning, as it would). Not replayed: numba's
# per-launch-configuration pre_launch_callbacks (they live on the configuration object
# numba makes for numbaxfer's own stream, which nothing else can reach). One device:
# the CUfunction is the current device's when the launcher is made (issue 16's devices
# must key the cache by device too).
_SCALAR_FORMATS: Final = {
    "int8": "b",
    "int16": "h",
    "int32": "i",
    "int64": "q",
    "uint8": "B",
    "uint16": "H",
    "uint32": "I",
    "uint64": "Q",
    "float32": "f",
    "float64": "d",
}
_INT64_MIN: Final = -(2**63)
_INT64_MAX: Final = 2**63 - 1


def array_argument(array: Any) -> bytes:
    """The flattened kernel argument of a numba device array, as numba's
    ``_Kernel._prepare_args`` makes it (read through the same strided-memory-view shim):
    meminfo, parent, nitems, itemsize, data, shape, strides, each an intptr_t."""
    from numba.cuda.np import numpy_support

    view = array._strided_memory_view_shim
    layout = view._layout
    shape = tuple(view.shape)
    itemsize = view.dtype.itemsize
    strides = layout.strides_in_bytes or numpy_support.strides_from_shape(
        shape=shape,
        itemsize=itemsize,
        c_contiguous=layout.is_contiguous_c,
        f_contiguous=layout.is_contiguous_f,
    )
    values = (0, 0, view.size, itemsize, view.ptr or 0, *shape, *strides)
    return struct.pack(f"<{len(values)}q", *values)


def argument_format(argtypes: Sequence[Any]) -> str | None:
    """The struct format of the parameter block for these numba argument types (one
    8-byte slot per parameter; arrays as their packed bytes), or None where the direct
    path does not handle one of them exactly as numba does."""
    import importlib

    types: Any = importlib.import_module("numba.cuda.types")  # untyped in the stubs
    fmt = ["<"]
    for ty in argtypes:
        if isinstance(ty, types.Array):
            if type(ty) is not types.Array or not isinstance(ty.dtype, types.Number):
                return None
            fmt.append(f"{8 * (5 + 2 * ty.ndim)}s")
        elif isinstance(ty, (types.Integer, types.Float)) and str(ty) in _SCALAR_FORMATS:
            # numba: ctypes.c_<type>(v) / c_float / c_double, the value's own bytes
            code = _SCALAR_FORMATS[str(ty)]
            fmt.append(code + f"{8 - struct.calcsize('<' + code)}x")
        else:
            return None
    return "".join(fmt)


class _Direct:
    """One compiled overload of a numba kernel, launched straight through the driver:
    its CUfunction, and a parameter block (values, and a pointer to each) reused by
    every launch. Launches are serialized by ``STATE_LOCK``, and cuLaunchKernel copies
    the values before it returns, so one block per overload is enough."""

    __slots__ = (
        "args",
        "dispatcher",
        "fmt",
        "func",
        "overload",
        "params",
        "ptrs",
        "types",
    )

    def __init__(self, dispatcher: Any, overload: Any, types: tuple[Any, ...], fmt: str) -> None:
        self.dispatcher = dispatcher  # held, with the types: the cache is keyed by ids
        self.types = types
        self.overload = overload
        self.fmt = fmt
        cufunc = overload._codelibrary.get_cufunc()
        self.func = cufunc.handle
        size = struct.calcsize(fmt)
        self.params = ctypes.create_string_buffer(size)
        base = ctypes.addressof(self.params)
        self.ptrs = (ctypes.c_void_p * (size // 8))(*(base + 8 * i for i in range(size // 8)))
        self.args = ctypes.addressof(self.ptrs)


def _scalar_types() -> dict[type, Any]:
    """Python and numpy scalar types -> the numba type numba's dispatcher gives their
    values (a Python int in int64 range is int64; the caller checks the range)."""
    from numba.cuda.typing.typeof import Purpose, typeof

    found: dict[type, Any] = {
        int: typeof(1, Purpose.argument),
        float: typeof(1.0, Purpose.argument),
    }
    for name in _SCALAR_FORMATS:
        t = getattr(np, name)
        found[t] = typeof(t(1), Purpose.argument)
    return found


def _dims(griddim: Any, blockdim: Any) -> tuple[int, ...]:
    from numba.cuda.errors import normalize_kernel_dimensions

    grid, block = normalize_kernel_dimensions(griddim, blockdim)  # type: ignore[no-untyped-call]
    return tuple(int(v) for v in (*grid, *block))


def _launchable(dispatcher: Any, overload: Any) -> bool:
    """Would numba launch ``overload`` for these argument types with nothing but the
    flattened arguments (no hook, no hidden state)?"""
    return (
        not overload.debug
        and not overload.cooperative
        and not getattr(overload, "launch_config_sensitive", False)
        and not getattr(overload, "extensions", None)
        and not dispatcher.targetoptions.get("extensions")
        and not dispatcher._launch_config_sensitive
    )


class BindingsBackend(NumbaBackend):
    """The fast path on a real GPU: numba allocates and compiles kernels; copies,
    events and stream waits go straight to the driver through cuda.bindings (which
    numba-cuda already depends on), skipping numba's per-call Python checks. Events
    come from a pool: no transfer creates one. A kernel numba has already compiled for
    the arguments' types is launched directly (``_Direct``, one cuLaunchKernel with the
    arguments packed as numba packs them); any other launch goes through numba's
    dispatcher, which compiles, and the next launch is direct.

    numbaxfer has already checked shapes, dtypes, contiguity and pinning before any
    of these calls, which is why they can be this thin.
    """

    name = "numba"

    def __init__(self, device: int | None = None, siblings: dict[int, Any] | None = None) -> None:
        super().__init__(device, siblings)
        from cuda.bindings import driver

        self._drv = driver
        self._not_ready = driver.CUresult.CUDA_ERROR_NOT_READY
        self._no_timing = driver.CUevent_flags.CU_EVENT_DISABLE_TIMING
        self._local = threading.local()
        with self._here():
            cuda.current_context()  # make numba's context current on this thread
        # The direct launch path (NUMBAXFER_DIRECT_LAUNCH=0 turns it off): cache of
        # (id(dispatcher), ids of the arguments' numba types...) -> _Direct, or a tuple
        # (what the ids name) where numba's dispatcher must launch; launch dimensions as
        # numba normalizes them, once numba has launched with them; scalar types.
        self._direct_on = os.environ.get("NUMBAXFER_DIRECT_LAUNCH", "1") != "0"
        self._directs: dict[tuple[Any, ...], Any] = {}
        self._dims: dict[tuple[Any, Any], tuple[int, ...]] = {}
        self._scalar_types = _scalar_types()
        self._scalar_ids = {t: id(ty) for t, ty in self._scalar_types.items()}

    def describe(self) -> str:
        direct = ", direct kernel launches" if self._direct_on else ""
        return super().describe() + f" (fast path: cuda.bindings copies and pooled events{direct})"

    def _check(self, err: Any, what: str) -> None:
        if err:
            _, text = self._drv.cuGetErrorString(err)
            name = text.decode() if isinstance(text, bytes) else str(text)
            raise RuntimeError(f"numbaxfer: {what} failed: {err!r}: {name}")

    def _host_span(self, token: Any) -> tuple[int, int]:
        return int(token[1]), int(token[2])

    def _ensure_context(self) -> None:
        if not getattr(self._local, "ready", False):
            cuda.current_context()  # numba makes its context current on this thread
            self._local.ready = True

    # memory: numba allocates; we remember the pointers
    def alloc_device(
        self, shape: tuple[int, ...], dtype: np.dtype[Any], order: Literal["C", "F"] = "C"
    ) -> Any:
        with self._here():
            return _DeviceMemory(cuda.device_array(shape, dtype=dtype, order=order))

    def _device_token(self, array: Any) -> Any:
        return _DeviceMemory(array)

    def device_view(self, device_buffer: Any, start: int, stop: int) -> Any:
        return _DeviceMemory(device_buffer.array[start:stop])

    def host_memory(self, buf: NDArray[Any]) -> Any:
        return (buf, int(buf.ctypes.data), int(buf.nbytes))

    def kernel_arg(self, device_buffer: Any) -> Any:
        return device_buffer.array

    def stream_handle(self, stream: Any) -> int | None:
        return int(stream.handle) or None

    def adopt_stream(self, handle: int) -> Any:
        return _StreamHandle(cuda.external_stream(handle))

    def wait_event_handle(self, stream_handle: int, event: Any) -> None:
        (err,) = self._drv.cuStreamWaitEvent(stream_handle, event, 0)
        self._check(err, "cuStreamWaitEvent")

    def new_stream(self) -> Any:
        with self._here():
            return _StreamHandle(cuda.stream())

    def sync_stream(self, stream: Any) -> None:
        (err,) = self._drv.cuStreamSynchronize(stream.handle)
        self._check(err, "cuStreamSynchronize")

    def copy_htod(self, stream: Any, dst: Any, src: Any) -> None:
        self._ensure_context()
        if self._captures:
            self._keep(stream, dst, src)
        (err,) = self._drv.cuMemcpyHtoDAsync(dst.ptr, src[1], src[2], stream.handle)
        self._check(err, "cuMemcpyHtoDAsync")

    def copy_dtoh(self, stream: Any, dst: Any, src: Any) -> None:
        self._ensure_context()
        if self._captures:
            self._keep(stream, dst, src)
        (err,) = self._drv.cuMemcpyDtoHAsync(dst[1], src.ptr, dst[2], stream.handle)
        self._check(err, "cuMemcpyDtoHAsync")

    def copy_dtod(self, stream: Any, dst: Any, src: Any) -> None:
        self._ensure_context()
        if self._captures:
            self._keep(stream, dst, src)
        (err,) = self._drv.cuMemcpyDtoDAsync(dst.ptr, src.ptr, dst.nbytes, stream.handle)
        self._check(err, "cuMemcpyDtoDAsync")

    def launch(
        self,
        stream: Any,
        kernel: Any,
        griddim: int | tuple[int, ...],
        blockdim: int | tuple[int, ...],
        args: Sequence[Any],
    ) -> None:
        """On this backend's device (its context current where several are in use):
        the direct path where it applies (see ``_Direct``; its cache is this device's,
        each device's backend holding its own), numba's dispatcher otherwise; a launch
        the driver refuses is redone through numba, so that the error raised is numba's
        own."""
        if self._captures:  # a capture keeps what its launches use alive
            self._keep(stream, kernel, tuple(args))
        if len(self._siblings) == 1:
            self._launch(stream, kernel, griddim, blockdim, args)
        else:
            with self._here():
                self._launch(stream, kernel, griddim, blockdim, args)

    def _launch(
        self,
        stream: Any,
        kernel: Any,
        griddim: int | tuple[int, ...],
        blockdim: int | tuple[int, ...],
        args: Sequence[Any],
    ) -> None:
        direct = self._direct_for(kernel, args) if self._direct_on else None
        if direct is not None:
            try:
                dims = self._dims[(griddim, blockdim)]
            except (KeyError, TypeError):  # new (or unhashable) dims: numba validates them
                direct = None
        if direct is None:
            kernel[griddim, blockdim, stream.stream](
                *[a.array if type(a) is _DeviceMemory else a for a in args]
            )
            if self._direct_on:
                try:
                    if (griddim, blockdim) not in self._dims:
                        if len(self._dims) > 4096:  # launch shapes that vary without end
                            self._dims.clear()
                        self._dims[(griddim, blockdim)] = _dims(griddim, blockdim)
                except TypeError:  # unhashable: numba's path every time (numba refuses)
                    pass
            return
        struct.pack_into(
            direct.fmt,
            direct.params,
            0,
            *[a.seg if type(a) is _DeviceMemory else a for a in args],
        )
        self._ensure_context()
        (err,) = self._drv.cuLaunchKernel(direct.func, *dims, 0, stream.handle, direct.args, 0)
        if err:  # nothing was launched: let numba launch it, or raise its error
            kernel[griddim, blockdim, stream.stream](
                *[a.array if type(a) is _DeviceMemory else a for a in args]
            )

    def _direct_for(self, dispatcher: Any, args: Sequence[Any]) -> _Direct | None:
        """The direct launcher for ``dispatcher`` and these arguments' numba types, if
        numba has compiled that overload and would launch it with nothing but the
        flattened arguments; None sends the launch through numba (which compiles).

        The cache key is ids (numba types are interned; every entry holds the
        dispatcher and the types it was made for, so no id is reused while it lives)."""
        key: list[int] = [id(dispatcher)]
        scalars = self._scalar_ids
        for a in args:
            t = type(a)
            if t is _DeviceMemory:
                key.append(id(a.ntype if a.seg is not None else a.prepare()))
            elif t is int:
                if not _INT64_MIN <= a <= _INT64_MAX:
                    return None
                key.append(scalars[int])
            else:
                ty = scalars.get(t)
                if ty is None:
                    return None
                key.append(ty)
        k = tuple(key)
        direct = self._directs.get(k)
        if direct is None:
            direct = self._plan_direct(dispatcher, k, args)
        if type(direct) is not _Direct or direct.dispatcher._launch_config_sensitive:
            return None
        return direct

    def _plan_direct(self, dispatcher: Any, key: tuple[int, ...], args: Sequence[Any]) -> Any:
        """Make (and cache) the direct launcher, or cache why there is none (a tuple
        holding what the key's ids name); None where numba has not compiled it yet."""
        from numba.cuda.dispatcher import CUDADispatcher

        types = tuple(
            a.ntype if type(a) is _DeviceMemory else self._scalar_types[type(a)] for a in args
        )
        if type(dispatcher) is not CUDADispatcher:
            self._directs[key] = (dispatcher, types)
            return None
        overload = dispatcher.overloads.get(types)
        if overload is None:  # not compiled yet: numba compiles it on this launch
            return None
        fmt = argument_format(types)
        if fmt is None or not _launchable(dispatcher, overload):
            self._directs[key] = (dispatcher, types)
            return None
        direct = _Direct(dispatcher, overload, types, fmt)
        self._directs[key] = direct
        return direct

    def record(self, stream: Any) -> Any:
        self._ensure_context()
        if self._events:
            event = self._events.pop()
        else:
            with self._here():  # an event belongs to the context it was created in
                err, event = self._drv.cuEventCreate(self._no_timing)
            self._check(err, "cuEventCreate")
            if len(self._siblings) > 1:
                self._owners[int(event)] = (event, self)
        (err,) = self._drv.cuEventRecord(event, stream.handle)
        self._check(err, "cuEventRecord")
        return event

    def query(self, event: Any) -> bool:
        (err,) = self._drv.cuEventQuery(event)
        if err == self._not_ready:
            return False
        self._check(err, "cuEventQuery")
        return True

    def sync_event(self, event: Any) -> None:
        (err,) = self._drv.cuEventSynchronize(event)
        self._check(err, "cuEventSynchronize")

    def wait_event(self, stream: Any, event: Any) -> None:
        (err,) = self._drv.cuStreamWaitEvent(stream.handle, event, 0)
        self._check(err, "cuStreamWaitEvent")

    def _event_key(self, event: Any) -> int:
        return int(event)
