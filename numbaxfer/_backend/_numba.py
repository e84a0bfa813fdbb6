"""numba-cuda backend: the GPU, or numba's simulator under ``NUMBA_ENABLE_CUDASIM=1``.

Copies go through numba's device-array methods with an explicit stream; events are
pooled (creating one costs ~14 us through numba, recording ~2.6 us). Nothing here
synchronizes more than the one event or stream it is asked to.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
from numba import cuda
from numba.cuda.core import config as numba_cuda_config
from numpy.typing import NDArray

from .._guard import alloc_pages, guard_enabled, lifted
from ._record import GraphRecorder, RecordedCapture, RecordedGraph

__all__ = ["BindingsBackend", "NumbaBackend"]


class NumbaBackend:
    """The backend numbaxfer uses by default."""

    name = "numba"

    def __init__(self) -> None:
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
        #: Simulator: captures are recorded here. GPU: the open driver captures by
        #: stream identity, each keeping alive what its copies and launches use.
        self._graphs = GraphRecorder()
        self._captures: dict[int, _DriverCapture] = {}

    def describe(self) -> str:
        if self.simulated:
            return "numba-cuda simulator (NUMBA_ENABLE_CUDASIM=1; copies are synchronous)"
        return f"numba-cuda on {cuda.get_current_device().name}"

    # -- memory --------------------------------------------------------------
    def alloc_pinned(
        self, shape: tuple[int, ...], dtype: np.dtype[Any], order: Literal["C", "F"] = "C"
    ) -> NDArray[Any]:
        if self.simulated and guard_enabled():  # the simulator's is ordinary numpy memory
            return alloc_pages(shape, dtype, order)
        return cuda.pinned_array(shape, dtype=dtype, order=order)  # cuMemHostAlloc: page-aligned

    def alloc_device(
        self, shape: tuple[int, ...], dtype: np.dtype[Any], order: Literal["C", "F"] = "C"
    ) -> Any:
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
        from numba.cuda.cudadrv import driver

        return cuda.current_context().mempin(
            array, driver.host_pointer(array), driver.host_memory_size(array), mapped=False
        )

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
        return 0 if self.simulated else int(cuda.get_current_device().id)

    def adopt_stream(self, handle: int) -> Any:
        if self.simulated:
            raise TypeError("numba's simulator has no driver streams to adopt")
        return cuda.external_stream(handle)

    def adopt_device(self, obj: Any) -> tuple[Any, tuple[int, ...], np.dtype[Any], int | None]:
        array, stream = _foreign_array(obj, self.simulated)
        return self._device_token(array), tuple(array.shape), np.dtype(array.dtype), stream

    # -- streams -------------------------------------------------------------
    def new_stream(self) -> Any:
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
            kernel[griddim, blockdim, stream](*args)

    # -- events --------------------------------------------------------------
    def record(self, stream: Any) -> Any:
        if self._events:
            event = self._events.pop()
        else:  # the simulator's event() takes no arguments
            event = cuda.event() if self.simulated else cuda.event(timing=False)
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
        if len(self._events) < 256:
            self._events.append(event)

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


class _DeviceMemory:
    """A numba device array and its raw pointer, looked up once at allocation."""

    __slots__ = ("array", "nbytes", "ptr")

    def __init__(self, array: Any) -> None:
        self.array = array
        self.ptr = int(array.__cuda_array_interface__["data"][0])
        self.nbytes = int(array.nbytes)


class _StreamHandle:
    """A numba stream and its driver handle."""

    __slots__ = ("handle", "stream")

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.handle = stream.handle


class BindingsBackend(NumbaBackend):
    """The fast path on a real GPU: numba allocates and launches kernels; copies,
    events and stream waits go straight to the driver through cuda.bindings (which
    numba-cuda already depends on), skipping numba's per-call Python checks. Events
    come from a pool: no transfer creates one.

    numbaxfer has already checked shapes, dtypes, contiguity and pinning before any
    of these calls, which is why they can be this thin.
    """

    name = "numba"

    def __init__(self) -> None:
        super().__init__()
        from cuda.bindings import driver

        self._drv = driver
        self._not_ready = driver.CUresult.CUDA_ERROR_NOT_READY
        self._no_timing = driver.CUevent_flags.CU_EVENT_DISABLE_TIMING
        self._local = threading.local()
        cuda.current_context()  # make numba's context current on this thread

    def describe(self) -> str:
        return super().describe() + " (fast path: cuda.bindings copies and pooled events)"

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
        if self._captures:
            self._keep(stream, kernel, tuple(args))
        kernel[griddim, blockdim, stream.stream](*args)

    def record(self, stream: Any) -> Any:
        self._ensure_context()
        if self._events:
            event = self._events.pop()
        else:
            err, event = self._drv.cuEventCreate(self._no_timing)
            self._check(err, "cuEventCreate")
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
